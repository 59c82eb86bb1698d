package io.squall.api.ha;

import java.io.IOException;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an HA controller starts: it stands by (answering with the leader's address, loading
 * nothing) until it takes the lease, then migrates the schema, fences every table, and hands over
 * to the ordinary start-up, which loads the state and reconciles agents and instances exactly as
 * a controller restarted after a crash does. The term goes to the service's connections through
 * {@code datasources.default.connection-init-sql} and to the service as {@code squall.ha.term}.
 */
public final class Leadership {
  private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);
  /** How often a standby looks at the lease: a small part of the takeover time. */
  private static final long POLL_MILLIS = 250;

  private Leadership() {}

  /** Blocks while another controller leads; returns once this one does, its lease kept from then on. */
  public static long await(HaSettings settings) throws IOException, InterruptedException {
    ControllerLease lease = new ControllerLease(settings, holderName());
    StandbyServer standby = settings.tls() ? null : StandbyServer.start(settings.host(), settings.port());
    LOG.info("standing by for the controller lease as {}", settings.advertiseUrl());
    warmUp(settings);
    long acquiredAt;
    OptionalLong term = OptionalLong.empty();
    String lastError = null;
    LeaderClasses loadingClasses = null;
    do {
      acquiredAt = System.nanoTime();
      try {
        lease.ensureTable(() -> migrate(settings));
        term = lease.tryAcquire();
        if (term.isEmpty() && standby != null) {
          standby.leader(lease.holder().orElse(null));
        }
        if (term.isEmpty() && loadingClasses == null) {
          // Another controller leads: this one will stand by a while. (One that leads at once would
          // only slow its own start with classes it does not need.)
          loadingClasses = LeaderClasses.loadInBackground();
        }
        lastError = null;
      } catch (SQLException e) {
        // The database is down or a takeover waited too long for a lock: keep standing by.
        if (!java.util.Objects.equals(e.getMessage(), lastError)) {
          LOG.warn("standing by: cannot read the controller lease: {}", e.getMessage());
          lastError = e.getMessage();
        }
        lease.reset();
      }
      if (term.isEmpty()) {
        Thread.sleep(POLL_MILLIS);
      }
    } while (term.isEmpty());
    if (standby != null) {
      standby.close();
    }
    if (loadingClasses != null) {
      loadingClasses.stop();
    }
    long t = term.getAsLong();
    LOG.info("took the controller lease at term {}; loading the state", t);
    LeaseKeeper keeper = new LeaseKeeper(lease, settings, t, acquiredAt, System::nanoTime, LeaseKeeper::halt);
    keeper.start();
    prepareSchema(settings);
    System.setProperty("datasources.default.connection-init-sql", Fencing.sessionSql(t, settings.leaseTtl()));
    // Migrated above, at this term: the service's own Flyway would only check it all again.
    System.setProperty("flyway.datasources.default.enabled", "false");
    System.setProperty(HaSettings.PREFIX + "term", Long.toString(t));
    return t;
  }

  /**
   * Reads the schema's migration history once while standing by (read only), so that the classes
   * and migration scripts a takeover's migration needs are loaded before the leader dies: in a cold
   * JVM they were most of the second between taking the lease and loading the state. A failure
   * changes nothing: the takeover migrates as it would have.
   */
  private static void warmUp(HaSettings settings) {
    try {
      Flyway.configure().dataSource(settings.jdbcUrl(), settings.username(), settings.password()).load().info();
    } catch (RuntimeException e) {
      LOG.debug("standing by: the migration history could not be read yet: {}", e.getMessage());
    }
  }

  /** Migrates as the service would. */
  private static void migrate(HaSettings settings) {
    Flyway.configure().dataSource(settings.jdbcUrl(), settings.username(), settings.password()).load().migrate();
  }

  /** Migrates, then fences every table, the new ones included. */
  private static void prepareSchema(HaSettings settings) {
    migrate(settings);
    try (Connection c = DriverManager.getConnection(settings.jdbcUrl(), settings.username(), settings.password())) {
      List<String> fenced = Fencing.install(c);
      LOG.info("fenced {} tables at the lease's term", fenced.size());
    } catch (SQLException e) {
      throw new IllegalStateException("cannot fence the database's tables: " + e.getMessage(), e);
    }
  }

  private static String holderName() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "unknown-host";
    }
    return host + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 8);
  }
}
