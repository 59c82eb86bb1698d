package io.squall.api.simulate;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.PropertySource;
import io.micronaut.context.env.yaml.YamlPropertySourceLoader;
import io.squall.api.config.AwsProviderConfig;
import io.squall.api.config.BackfillConfig;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.GcpProviderConfig;
import io.squall.api.config.LocalProviderConfig;
import io.squall.api.config.PriorityConfig;
import io.squall.api.config.SquallConfig;
import io.squall.api.scheduling.SchedulerFactory;
import io.squall.core.schedule.SchedulerConfig;
import io.squall.providers.local.LocalProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A controller configuration file ({@code squall.yml}, the file the service reads) turned into the
 * cluster it describes, by the service's own binding and checks ({@link ClusterLayout}): what is
 * simulated is what would run, and a configuration the controller would refuse is refused here
 * with the same message. The context is started without its HTTP server, on a throw-away
 * in-memory database and data directory, so nothing of a real controller is touched and no
 * scheduling loop runs.
 */
public final class ServiceConfig {
  /** The Micronaut environment the configuration is read in. */
  public static final String ENVIRONMENT = "simulate";

  private ServiceConfig() {}

  /**
   * What a simulation needs of a configuration: the cluster, its scheduler's settings and interval,
   * its provider, the region the price list is read for ({@code squall.aws.region} or {@code
   * squall.gcp.region}) and the zones the provider launches in ({@code squall.aws.subnets}' zones,
   * {@code squall.gcp.zones}; none for the local provider), and the local provider's settings
   * ({@code squall.local.*}: what it sells, its boot delay) when that is the provider.
   */
  public record Cluster(Path file, String name, ClusterLayout layout, String provider, String region,
      List<String> zones, LocalProvider.Settings local, SchedulerConfig scheduler, Duration schedulerInterval) {}

  /**
   * Reads {@code file} into the cluster it configures (the context is closed before this returns).
   *
   * @throws IllegalArgumentException naming the file and saying what the controller would say
   *     of it (the key and why), when the controller would refuse it
   */
  public static Cluster read(Path file) {
    try {
      return read(file, ctx -> {
        SquallConfig config = ctx.getBean(SquallConfig.class);
        String provider = config.getProvider();
        GcpProviderConfig gcp = ctx.getBean(GcpProviderConfig.class);
        AwsProviderConfig aws = ctx.getBean(AwsProviderConfig.class);
        boolean onGcp = provider.equals("gcp");
        return new Cluster(file, config.getClusterName(), ctx.getBean(ClusterLayout.class), provider,
            onGcp ? gcp.getRegion() : aws.getRegion(),
            List.copyOf(onGcp ? gcp.getZones() : provider.equals("aws") ? aws.getSubnets().keySet() : List.of()),
            provider.equals("local") ? ctx.getBean(LocalProviderConfig.class).settings(List.of()) : null,
            SchedulerFactory.config(ctx.getBean(PriorityConfig.class), ctx.getBean(BackfillConfig.class)),
            config.getSchedulerInterval());
      });
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      // The context wraps the controller's refusal in its own exceptions: the innermost says why.
      Throwable why = e;
      while (why.getCause() != null) {
        why = why.getCause();
      }
      throw new IllegalArgumentException(file + ": " + why.getMessage(), e);
    }
  }

  private static <T> T read(Path file, Function<ApplicationContext, T> use) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(file + ": no such configuration file");
    }
    Path scratch;
    try {
      scratch = Files.createTempDirectory("squall-simulate");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // These override the file's: a scratch data directory and database, no server.
    Map<String, Object> scratchOnly = Map.of(
        "squall.data-dir", scratch.toString(),
        "datasources.default.url", "jdbc:h2:mem:simulate-" + Long.toHexString(System.nanoTime())
            + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH",
        "micronaut.server.port", -1,
        // A second context in the JVM registers the JVM's gauges again: said once, at WARN, on stdout.
        "logger.levels.io.micrometer", "ERROR",
        // Nothing is served: no health monitor (it wants the metrics the simulate environment leaves out).
        "micronaut.health.monitor.enabled", false);
    // In the simulate environment the controller's running parts (its state, scheduling loop,
    // fleet, interruption feeds) are left out: only the configuration is wanted, bound and checked
    // as the controller does. The file is read as -Dmicronaut.config.files would have it: above
    // the built-in application.yml, below the scratch settings.
    try (ApplicationContext ctx = ApplicationContext.builder(ENVIRONMENT)
        .propertySources(PropertySource.of(file.toString(), yaml(file), 5_000),
            PropertySource.of("simulate", scratchOnly, 10_000))
        .start()) {
      return use.apply(ctx);
    } finally {
      deleteQuietly(scratch);
    }
  }

  /** The configuration file's settings, flattened as Micronaut reads a YAML configuration file. */
  private static Map<String, Object> yaml(Path file) {
    try {
      return new YamlPropertySourceLoader().read(file.toString(), Files.readAllBytes(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory: the OS cleans it up
    }
  }
}
