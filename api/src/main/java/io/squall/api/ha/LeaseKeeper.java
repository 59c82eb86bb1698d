package io.squall.api.ha;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews the leader's lease every renew interval, and stops the leader the moment it can no
 * longer be sure of it: when the lease has moved to a newer term (another controller took it),
 * or when no renewal has succeeded for so long that the lease may expire before the next try.
 * A renewal counts from when it was sent, before the database extended the lease, so this
 * controller's idea of its lease never outlasts the database's.
 */
public final class LeaseKeeper {
  /** The status a controller that lost its lease exits with (EX_TEMPFAIL): its supervisor starts it again, as a standby. */
  public static final int EXIT_LOST_LEASE = 75;
  private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

  private final ControllerLease lease;
  private final long term;
  private final long ttlNanos;
  private final long marginNanos;
  private final Duration renewEvery;
  private final LongSupplier nanoTime;
  private final Consumer<String> onLost;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "squall-lease");
    t.setDaemon(true);
    t.setPriority(Thread.MAX_PRIORITY);
    return t;
  });
  private long confirmedUntil;
  private volatile boolean lost;

  /**
   * @param acquiredAt {@code nanoTime} just before the lease was taken
   * @param onLost told why, once, when the lease is lost; {@link #halt} in a controller
   */
  public LeaseKeeper(ControllerLease lease, HaSettings settings, long term, long acquiredAt, LongSupplier nanoTime,
      Consumer<String> onLost) {
    this.lease = lease;
    this.term = term;
    this.ttlNanos = settings.leaseTtl().toNanos();
    // The next check may come one interval late: stop one interval before the lease could end.
    this.marginNanos = settings.renewInterval().toNanos();
    this.nanoTime = nanoTime;
    this.onLost = onLost;
    this.confirmedUntil = acquiredAt + ttlNanos;
    this.renewEvery = settings.renewInterval();
  }

  public void start() {
    thread.scheduleWithFixedDelay(this::renewOnce, renewEvery.toMillis(), renewEvery.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** One renewal and the check after it; runs on the keeper's thread (tests call it directly). */
  void renewOnce() {
    if (lost) {
      return;
    }
    long sent = nanoTime.getAsLong();
    try {
      if (!lease.renew(term)) {
        lose("the lease was taken by another controller (this one led at term " + term + ")");
        return;
      }
      confirmedUntil = sent + ttlNanos;
    } catch (SQLException e) {
      LOG.warn("cannot renew the controller lease (term {}): {}", term, e.getMessage());
      lease.reset();
    }
    if (nanoTime.getAsLong() >= confirmedUntil - marginNanos) {
      lose("the lease (term " + term + ") could not be renewed before it may expire");
    }
  }

  private void lose(String why) {
    lost = true;
    onLost.accept(why);
  }

  /** What a controller does when it loses the lease: stops at once, without running shutdown work that could act. */
  public static void halt(String why) {
    LOG.error("{}: stopping now; started again, this controller stands by", why);
    System.err.println("squall: " + why + ": stopping now (exit " + EXIT_LOST_LEASE + "); started again, it stands by");
    Runtime.getRuntime().halt(EXIT_LOST_LEASE);
  }
}
