package io.squall.api;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.squall.api.bench.ControllerSettings;
import java.nio.file.Path;
import java.util.Map;

/** Starts real controllers for tests: the whole Micronaut service on a loopback port. */
public final class Controllers {
  private Controllers() {}

  /** Settings for a controller on {@code dataDir} (H2 there, unless {@code jdbcUrl} names PostgreSQL). */
  public static Map<String, Object> settings(Path dataDir, String jdbcUrl, String provider) {
    ControllerSettings s = ControllerSettings.of(-1, dataDir, provider)
        .with("squall.scheduler-interval", "200ms")
        .with("squall.heartbeat-interval", "1s")
        // Fifteen heartbeats. A node judged silent goes DOWN with its jobs requeued, and a running job
        // its heartbeat lacks is requeued once older than this: 4 s is a stall a loaded 2-core machine
        // can produce (an agent JVM starved of CPU, the writer behind a slow commit, a launch late).
        // Tests that wait for a silent node pay the difference once.
        .with("squall.node-timeout", "15s")
        .with("squall.kill-wait", "2s");
    return (jdbcUrl == null ? s : s.postgres(jdbcUrl)).map();
  }

  /**
   * Settings for a controller whose partition {@code gpu} is the static nodes {@code nodes}, with no
   * provider: their agents are the test's ({@link FakeAgent}).
   */
  public static Map<String, Object> staticSettings(Path dataDir, String jdbcUrl, String nodes) {
    Map<String, Object> p = settings(dataDir, jdbcUrl, "none");
    p.put("squall.partitions.gpu.nodes", nodes);
    return p;
  }

  /**
   * {@link #staticSettings} on the manual clock ({@link ManualTime}): a node is lost once its
   * agent has been silent for {@code nodeTimeout} of that clock.
   */
  public static Map<String, Object> manualSettings(Path dataDir, String jdbcUrl, String nodes, String nodeTimeout) {
    Map<String, Object> p = staticSettings(dataDir, jdbcUrl, nodes);
    p.put("squall.ticks", "manual");
    p.put("squall.node-timeout", nodeTimeout);
    return p;
  }

  /**
   * Settings for a controller on the manual clock ({@link ManualTime}) whose partition {@code gpu}
   * is the elastic nodes {@code nodes} of the local provider, launched {@code batchWindow} after
   * their jobs are allocated. The clock runs ahead of the agents' real heartbeats: a node is lost
   * only after 10 hours of it, since node loss is not what these tests are about.
   */
  public static Map<String, Object> elasticSettings(Path dataDir, String nodes, java.time.Duration batchWindow) {
    Map<String, Object> p = settings(dataDir, null, "local");
    p.put("squall.partitions.gpu.nodes", nodes);
    p.put("squall.partitions.gpu.elastic", true);
    p.put("squall.partitions.gpu.batch-window", batchWindow.toMillis() + "ms");
    p.put("squall.ticks", "manual");
    p.put("squall.node-timeout", "10h");
    return p;
  }

  /** A free port for a controller that must come back on the same one (see ChaosBench). */
  static int restartablePort() {
    return io.squall.api.bench.ChaosBench.restartablePort();
  }

  /**
   * The PostgreSQL that .ci/run starts, with an empty schema; the test is skipped without one.
   *
   * @return its JDBC URL
   */
  public static String emptyPostgres() throws java.sql.SQLException {
    String url = System.getenv("SQUALL_TEST_PG_URL");
    org.junit.jupiter.api.Assumptions.assumeTrue(url != null,
        "SQUALL_TEST_PG_URL is not set (.ci/run starts PostgreSQL and sets it)");
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS public CASCADE");
      s.execute("CREATE SCHEMA public");
    }
    return url;
  }

  /**
   * Starts a controller on the port a closed one listened on. Netty closes a server's socket on
   * its event loop after the context is closed, so the port is waited for (bound and released
   * here) rather than assumed free: a new process would not have to, the old one's socket dying
   * with it.
   */
  static Running startAgainOn(int port, Map<String, Object> settings) {
    Poll.until("port " + port + " to be released", java.time.Duration.ofSeconds(30), () -> {
      try (java.net.ServerSocket s = new java.net.ServerSocket()) {
        s.setReuseAddress(true);
        s.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
        return true;
      } catch (java.io.IOException inUse) {
        return null;
      }
    });
    return start(settings);
  }

  public static Running start(Map<String, Object> settings) {
    return new Running(ApplicationContext.run(EmbeddedServer.class, settings));
  }

  /** A running controller; closing it stops the whole application context, as a shutdown does. */
  public record Running(EmbeddedServer server) implements AutoCloseable {
    public String url() {
      return server.getURL().toString();
    }

    public <T> T bean(Class<T> type) {
      return server.getApplicationContext().getBean(type);
    }

    @Override
    public void close() {
      server.getApplicationContext().close();
    }
  }
}
