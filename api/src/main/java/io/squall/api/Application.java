package io.squall.api;

import io.micronaut.context.exceptions.BeanInstantiationException;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.runtime.Micronaut;
import io.squall.api.ha.HaSettings;
import io.squall.api.ha.Leadership;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.info.Info;

/** Starts the Squall controller. */
@OpenAPIDefinition(info = @Info(title = "squall-api", version = "0.1",
    description = "Squall: submit Slurm batch scripts, watch and control jobs, nodes and partitions."))
public final class Application {
  private Application() {}

  public static void main(String[] args) throws Exception {
    try {
      HaSettings ha = HaSettings.read(args);
      if (ha.enabled()) {
        // A standby loads nothing and acts on nothing until it leads: see io.squall.api.ha.
        Leadership.await(ha);
      }
    } catch (ConfigurationException refused) {
      System.err.println("squall: cannot start: " + refused.getMessage());
      System.exit(1);
    }
    Micronaut.build(args).mainClass(Application.class).banner(false)
        .mapError(BeanInstantiationException.class, Application::refusedSetting)
        .start();
  }

  /**
   * A setting that start-up refused (a {@link ConfigurationException}: shipped secrets beyond
   * loopback, TLS files, budgets, ...) is said in its own words on one line and the process ends
   * with status 1: Micronaut would log it under a page of stack trace. Anything else keeps
   * Micronaut's report and status 1.
   */
  private static int refusedSetting(BeanInstantiationException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConfigurationException refused) {
        System.err.println("squall: cannot start: " + refused.getMessage());
        System.exit(1);
      }
    }
    return 1;
  }
}
