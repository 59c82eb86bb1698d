package io.squall.api.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.api.Controllers;
import io.squall.api.Poll;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lease and its fencing against a real PostgreSQL (.ci/run starts one and sets
 * SQUALL_TEST_PG_URL; skipped without it): two controllers' leases on one database, and the
 * deposed one's writes refused in the database.
 */
class FencingTest {
  private static final Duration TTL = Duration.ofSeconds(5);
  private String url;
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeEach
  void emptyDatabase() throws SQLException {
    url = Controllers.emptyPostgres();
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  @Test
  void aDeposedLeadersWritesAreRefusedAndTheNewLeadersGoThrough() throws Exception {
    ControllerLease a = lease("a");
    ControllerLease b = lease("b");
    a.ensureTable(this::createJobsTable);
    b.ensureTable(() -> { throw new AssertionError("the table exists: nothing to migrate"); });
    long termA = a.tryAcquire().orElseThrow();
    assertThat(b.tryAcquire()).as("a live lease is not taken").isEmpty();
    fence();
    Connection writerA = session(termA);
    insert(writerA, "acknowledged by a");

    expire();
    long termB = b.tryAcquire().orElseThrow();
    assertThat(termB).isEqualTo(termA + 1);
    assertThat(a.renew(termA)).as("a deposed leader cannot renew").isFalse();
    assertThatThrownBy(() -> insert(writerA, "written by a after b took over"))
        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo(Fencing.SQLSTATE))
        .hasMessageContaining("leads at term " + termA + ", but the lease is at term " + termB);
    insert(session(termB), "acknowledged by b");
    assertThat(rows()).containsExactly("acknowledged by a", "acknowledged by b");
  }

  @Test
  void aLeaderWhoseSessionEndedIsReplacedAtOnceButOneThatTookOverOnExpiryIsNot() throws Exception {
    ControllerLease a = lease("a");
    ControllerLease b = lease("b");
    a.ensureTable(this::createJobsTable);
    assertThat(a.tryAcquire()).hasValue(1);
    assertThat(b.tryAcquire()).as("a's lease is live and its session too").isEmpty();
    a.close(); // as a kill -9 does: the database drops the session, and its lock on term 1
    awaitSessionEnded(1);
    assertThat(b.tryAcquire()).as("no need to wait for the lease to expire").hasValue(2);

    // c takes over on expiry while b's session lives on (b's host cut off): when b's session then
    // ends, that is no reason to depose c.
    ControllerLease c = lease("c");
    expire();
    assertThat(c.tryAcquire()).hasValue(3);
    b.close();
    assertThat(lease("d").tryAcquire()).isEmpty();
    assertThat(c.renew(3)).isTrue();
  }

  @Test
  void aTakeoverWaitsForTheDeposedLeadersWriteInFlightAndThenSeesIt() throws Exception {
    ControllerLease a = lease("a");
    ControllerLease b = lease("b");
    a.ensureTable(this::createJobsTable);
    long termA = a.tryAcquire().orElseThrow();
    fence();
    Connection writerA = session(termA);
    writerA.setAutoCommit(false);
    expire();
    // The lease has run out but nobody took it yet: the term is still a's, so its write goes on.
    insert(writerA, "in flight when the lease expired");
    CompletableFuture<OptionalLong> takeover = CompletableFuture.supplyAsync(() -> {
      try {
        return b.tryAcquire();
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
    Poll.until("the takeover to wait for the lock of the write in flight", Duration.ofSeconds(30),
        () -> waitingForALock() ? true : null);
    assertThat(takeover).isNotDone();
    writerA.commit();
    assertThat(takeover.get().orElseThrow()).isEqualTo(termA + 1);
    assertThat(rows()).containsExactly("in flight when the lease expired");
  }

  @Test
  void theKeeperStopsTheLeaderWhenAnotherTookTheLeaseOrRenewalsFailUntilItMayExpire() throws Exception {
    ControllerLease a = lease("a");
    a.ensureTable(this::createJobsTable);
    AtomicLong now = new AtomicLong();
    List<String> lost = new ArrayList<>();
    LeaseKeeper keeper = new LeaseKeeper(a, settings(), a.tryAcquire().orElseThrow(), now.get(), now::get, lost::add);
    keeper.renewOnce();
    assertThat(lost).isEmpty();
    expire();
    lease("b").tryAcquire().orElseThrow();
    keeper.renewOnce();
    assertThat(lost).singleElement().asString().contains("taken by another controller");
    keeper.renewOnce();
    assertThat(lost).as("told once").hasSize(1);

    // Renewals that fail (the database out of reach): the leader stops one renew interval before
    // its lease may end, counted from the last renewal sent.
    ControllerLease unreachable = new ControllerLease(new HaSettings(true, "jdbc:postgresql://127.0.0.1:1/none", "", "",
        TTL, Duration.ofMillis(500), "http://127.0.0.1:1", "127.0.0.1", 1, false), "c");
    List<String> lostToo = new ArrayList<>();
    LeaseKeeper cut = new LeaseKeeper(unreachable, settings(), 7, 0, now::get, lostToo::add);
    now.set(TTL.minusMillis(501).toNanos());
    cut.renewOnce();
    assertThat(lostToo).isEmpty();
    now.set(TTL.minusMillis(500).toNanos());
    cut.renewOnce();
    assertThat(lostToo).singleElement().asString().contains("could not be renewed");
  }

  private HaSettings settings() {
    return new HaSettings(true, url, "", "", TTL, Duration.ofMillis(500), "http://127.0.0.1:1", "127.0.0.1", 1, false);
  }

  private ControllerLease lease(String holder) {
    ControllerLease lease = new ControllerLease(settings(), holder);
    open.add(lease);
    return lease;
  }

  /** Stands for the service's migration: a table the controller writes. */
  private void createJobsTable() {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE jobs (note TEXT)");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private void fence() throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      assertThat(Fencing.install(c)).containsExactly("jobs");
    }
  }

  /** A connection of the leader's pool at {@code term}. */
  private Connection session(long term) throws SQLException {
    Connection c = DriverManager.getConnection(url);
    open.add(c);
    try (Statement s = c.createStatement()) {
      s.execute(Fencing.sessionSql(term, TTL));
    }
    return c;
  }

  private static void insert(Connection c, String note) throws SQLException {
    try (var p = c.prepareStatement("INSERT INTO jobs VALUES (?)")) {
      p.setString(1, note);
      p.executeUpdate();
    }
  }

  /**
   * Waits until the database has ended the closed session that held {@code term}'s advisory lock:
   * closing a connection only asks the server to end it, and on a busy machine the next session's
   * try for the lock can come first (seen in a CI run beside another build).
   */
  private void awaitSessionEnded(long term) {
    Poll.until("the database to end the session holding term " + term, Duration.ofSeconds(30), () -> {
      try (Connection c = DriverManager.getConnection(url); var p = c.prepareStatement("SELECT count(*) FROM pg_locks"
          + " WHERE locktype = 'advisory' AND objsubid = 2 AND objid::bigint = ?"
          + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")) {
        p.setLong(1, term);
        try (var r = p.executeQuery()) {
          r.next();
          return r.getLong(1) == 0 ? Boolean.TRUE : null;
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /** As if the leader had died: its lease ends now, on the database's clock. */
  private void expire() throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("UPDATE controller_lease SET expires_at = clock_timestamp() - interval '1 second'");
    }
  }

  private List<String> rows() throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
        var r = s.executeQuery("SELECT note FROM jobs ORDER BY note")) {
      while (r.next()) {
        out.add(r.getString(1));
      }
    }
    return out;
  }

  private boolean waitingForALock() {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
        var r = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'squall-lease'"
            + " AND wait_event_type = 'Lock'")) {
      return r.next() && r.getInt(1) == 1;
    } catch (SQLException e) {
      return false;
    }
  }
}
