package io.squall.api.ha;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * The lease row in PostgreSQL, on a connection of its own (never the service's pool: a renewal
 * must not wait for a free connection). Expiry is reckoned on the database's clock, so the
 * controllers' clocks do not matter. Not thread-safe: one owner at a time.
 */
public final class ControllerLease implements AutoCloseable {
  /** Any key: it only serializes creating the table between controllers starting together. */
  private static final long CREATE_LOCK = 0x5C0A11L;
  /** The first key of the per-term advisory locks (two-int keys: apart from {@link #CREATE_LOCK}'s). */
  private static final int TERM_LOCKS = 0x5C0A;

  private final HaSettings settings;
  private final String holder;
  private Connection connection;
  /** The term whose advisory lock this session holds; 0 for none (a new connection holds none). */
  private long lockedTerm;

  /** @param holder this process, unique among the controllers (host, pid and a random part) */
  public ControllerLease(HaSettings settings, String holder) {
    this.settings = settings;
    this.holder = holder;
  }

  /** Who holds the lease: its term, address, and whether it is still unexpired. */
  public record Holder(long term, String url, boolean live) {}

  /**
   * Creates the table and its one row if this database has none yet; idempotent. On a database
   * without the table {@code migrate} runs first, under the same lock: Flyway refuses to start on
   * a schema that holds a table but no history of its own, and no controller leads a database
   * that has no lease yet, so the first one to come migrates it.
   */
  public void ensureTable(Runnable migrate) throws SQLException {
    Connection c = connection();
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.execute("SELECT pg_advisory_xact_lock(" + CREATE_LOCK + ")");
      boolean present;
      try (ResultSet r = s.executeQuery("SELECT to_regclass('controller_lease') IS NOT NULL")) {
        present = r.next() && r.getBoolean(1);
      }
      if (!present) {
        migrate.run();
        s.execute("CREATE TABLE controller_lease (id INT PRIMARY KEY CHECK (id = 1), term BIGINT NOT NULL,"
            + " holder TEXT NOT NULL, holder_url TEXT NOT NULL, expires_at TIMESTAMPTZ NOT NULL)");
        s.execute("INSERT INTO controller_lease VALUES (1, 0, '', '', clock_timestamp())");
      }
      c.commit();
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }

  /**
   * Takes the lease with the next term if it has expired, or at once if its holder's session has
   * ended (a leader killed with -9: the database drops its connection, and with it the leader's
   * advisory lock on its term; a leader whose host vanished without closing it is replaced when
   * its lease expires). It waits for the deposed leader's writes in flight (they hold a share lock
   * on the row), so everything it committed is visible once this returns.
   *
   * <p>The lock is per term: a leader that took over on expiry, while its predecessor still held
   * the previous term's lock, is not deposed when that predecessor's session ends.
   *
   * @return the new term, or empty while another controller leads
   */
  public OptionalLong tryAcquire() throws SQLException {
    long term;
    boolean expired;
    try (Statement s = connection().createStatement();
        ResultSet r = s.executeQuery("SELECT term, expires_at < clock_timestamp() FROM controller_lease WHERE id = 1")) {
      if (!r.next()) {
        return OptionalLong.empty();
      }
      term = r.getLong(1);
      expired = r.getBoolean(2);
    }
    // The next term's lock first: a standby that sees the new term finds it held from the start.
    if (!lock(term + 1)) {
      return OptionalLong.empty(); // another controller is taking it right now
    }
    boolean holderGone = !expired && lock(term);
    boolean taken;
    try (PreparedStatement p = connection().prepareStatement("UPDATE controller_lease SET term = term + 1,"
        + " holder = ?, holder_url = ?, expires_at = clock_timestamp() + make_interval(secs => ?)"
        + " WHERE id = 1 AND term = ? AND (expires_at < clock_timestamp() OR ?)")) {
      p.setString(1, holder);
      p.setString(2, settings.advertiseUrl());
      p.setDouble(3, seconds(settings.leaseTtl()));
      p.setLong(4, term);
      p.setBoolean(5, holderGone);
      taken = p.executeUpdate() == 1;
    } finally {
      if (holderGone) {
        unlock(term);
      }
    }
    if (!taken) {
      unlock(term + 1);
      return OptionalLong.empty();
    }
    lockedTerm = term + 1;
    return OptionalLong.of(term + 1);
  }

  /**
   * Extends the lease held at {@code term} by the TTL from now, and takes its term's lock again
   * if a new connection lost it.
   *
   * @return false when the lease has moved on to a newer term: this controller is deposed
   */
  public boolean renew(long term) throws SQLException {
    if (lockedTerm != term) {
      // Whoever else holds it is taking over anyway; the renewal below then finds the newer term.
      lockedTerm = lock(term) ? term : 0;
    }
    try (PreparedStatement p = connection().prepareStatement("UPDATE controller_lease"
        + " SET expires_at = clock_timestamp() + make_interval(secs => ?) WHERE id = 1 AND term = ? AND holder = ?")) {
      p.setDouble(1, seconds(settings.leaseTtl()));
      p.setLong(2, term);
      p.setString(3, holder);
      return p.executeUpdate() == 1;
    }
  }

  /** This session's advisory lock on {@code term}, if no other session holds it; never waits. */
  private boolean lock(long term) throws SQLException {
    try (PreparedStatement p = connection().prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
      p.setInt(1, TERM_LOCKS);
      p.setInt(2, (int) term);
      try (ResultSet r = p.executeQuery()) {
        return r.next() && r.getBoolean(1);
      }
    }
  }

  private void unlock(long term) throws SQLException {
    try (PreparedStatement p = connection().prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
      p.setInt(1, TERM_LOCKS);
      p.setInt(2, (int) term);
      p.execute();
    }
  }

  /** The current holder, if anyone ever took the lease. */
  public Optional<Holder> holder() throws SQLException {
    try (Statement s = connection().createStatement();
        ResultSet r = s.executeQuery("SELECT term, holder_url, expires_at > clock_timestamp()"
            + " FROM controller_lease WHERE id = 1 AND term > 0")) {
      return r.next() ? Optional.of(new Holder(r.getLong(1), r.getString(2), r.getBoolean(3))) : Optional.empty();
    }
  }

  /** Drops the connection after a failure; the next call opens a new one. */
  public void reset() {
    close();
  }

  @Override
  public void close() {
    lockedTerm = 0;
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // it is being dropped
      }
      connection = null;
    }
  }

  private Connection connection() throws SQLException {
    if (connection == null) {
      Properties p = new Properties();
      p.setProperty("user", settings.username() == null ? "" : settings.username());
      p.setProperty("password", settings.password() == null ? "" : settings.password());
      // A renewal stuck on a dead server must fail in time for the leader to stop before its lease ends.
      long timeout = Math.max(1, settings.renewInterval().toSeconds());
      p.setProperty("connectTimeout", Long.toString(timeout));
      p.setProperty("socketTimeout", Long.toString(Math.max(timeout, settings.leaseTtl().toSeconds() / 2)));
      p.setProperty("ApplicationName", "squall-lease");
      Connection c = DriverManager.getConnection(settings.jdbcUrl(), p);
      try (Statement s = c.createStatement()) {
        // Taking the lease waits for a deposed leader's writes; it must not wait forever for a dead one's.
        s.execute("SET lock_timeout = '" + settings.leaseTtl().toMillis() + "ms'");
      }
      connection = c;
    }
    return connection;
  }

  private static double seconds(Duration d) {
    return d.toMillis() / 1000.0;
  }
}
