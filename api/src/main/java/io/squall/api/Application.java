package io.squall.api;

import io.micronaut.runtime.Micronaut;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.info.Info;

/** Starts the Squall controller. */
@OpenAPIDefinition(info = @Info(title = "squall-api", version = "0.1",
    description = "Squall: submit Slurm batch scripts, watch and control jobs, nodes and partitions."))
public final class Application {
  private Application() {}

  public static void main(String[] args) {
    Micronaut.build(args).mainClass(Application.class).banner(false).start();
  }
}
