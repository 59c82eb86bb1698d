package io.squall.api;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Starts real controllers for tests: the whole Micronaut service on a loopback port. */
final class Controllers {
  private Controllers() {}

  /** Settings for a controller on {@code dataDir} (H2 there, unless {@code jdbcUrl} names PostgreSQL). */
  static Map<String, Object> settings(Path dataDir, String jdbcUrl, String provider) {
    Map<String, Object> p = new HashMap<>();
    p.put("squall.data-dir", dataDir.toString());
    p.put("squall.provider", provider);
    p.put("micronaut.server.port", -1);
    p.put("squall.scheduler-interval", "200ms");
    p.put("squall.heartbeat-interval", "1s");
    p.put("squall.node-timeout", "4s");
    p.put("squall.kill-wait", "2s");
    if (jdbcUrl != null) {
      p.put("datasources.default.url", jdbcUrl);
      p.put("datasources.default.username", "");
    }
    return p;
  }

  /**
   * A free port for a controller that must come back on the same one. Taken below the kernel's
   * ephemeral range (32768 and up on Linux): a port from that range, once free, can be handed to
   * any agent's or client's socket before the next controller binds it.
   */
  static int restartablePort() {
    java.util.Random random = new java.util.Random();
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = 20_000 + random.nextInt(12_000);
      try (java.net.ServerSocket s = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
        return port;
      } catch (java.io.IOException taken) {
        // try another
      }
    }
    throw new IllegalStateException("no free port between 20000 and 32000");
  }

  static Running start(Map<String, Object> settings) {
    return new Running(ApplicationContext.run(EmbeddedServer.class, settings));
  }

  /** A running controller; closing it stops the whole application context, as a shutdown does. */
  record Running(EmbeddedServer server) implements AutoCloseable {
    String url() {
      return server.getURL().toString();
    }

    <T> T bean(Class<T> type) {
      return server.getApplicationContext().getBean(type);
    }

    @Override
    public void close() {
      server.getApplicationContext().close();
    }
  }
}
