package io.squall.core.schedule;

import java.time.Duration;
import java.time.Instant;

/**
 * When a woken scheduler cycle runs: the rule the service's ticker follows and the what-if
 * simulator models, kept here so that the two cannot drift apart.
 *
 * <p>The scheduler is woken by anything that may let a job start: a submission, a job's end (an
 * agent's report that the batch script exited), a job or node command, and a cycle that started
 * jobs (array tasks may wait behind them). Many wakes before the cycle runs make one cycle, which
 * runs {@link #MIN_DELAY} after the wake at the earliest and {@link #MIN_GAP} after the last cycle:
 * Slurm's {@code sched_min_interval} (slurm.conf(5), SchedulerParameters), so a burst of
 * submissions makes few cycles. Every {@code squall.scheduler-interval} a cycle also runs when
 * something changed since the last one (a node booted, a job was requeued, a time trigger passed).
 */
public final class CycleWakeup {
  /** The least time between the end of a cycle and a woken one. */
  public static final Duration MIN_GAP = Duration.ofMillis(100);
  /** The least time between a wake and the cycle it asks for: the wakes of a burst are one cycle. */
  public static final Duration MIN_DELAY = Duration.ofMillis(5);

  private CycleWakeup() {}

  /**
   * How long after a wake its cycle runs.
   *
   * @param sinceLastCycle the time since the last cycle ended (any when none ran yet)
   */
  public static Duration delay(Duration sinceLastCycle) {
    Duration gapLeft = MIN_GAP.minus(sinceLastCycle);
    return gapLeft.compareTo(MIN_DELAY) > 0 ? gapLeft : MIN_DELAY;
  }

  /**
   * The instant at which the cycle asked for by a wake at {@code wokenAt} runs.
   *
   * @param lastCycle when the last cycle ran; null when none has
   */
  public static Instant cycleAt(Instant wokenAt, Instant lastCycle) {
    return wokenAt.plus(delay(lastCycle == null ? MIN_GAP : Duration.between(lastCycle, wokenAt)));
  }
}
