package io.squall.core.provision;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class UniformProgressTest {
  private static final Instant SUBMIT = Instant.parse("2026-11-26T00:00:00Z");
  private static final Duration WORK = Duration.ofHours(4);
  private static final Instant DEADLINE = SUBMIT.plus(Duration.ofHours(8)); // 2x the work
  private static final Duration CHANGEOVER = Duration.ofMinutes(5);

  private static UniformProgress.Decision at(Duration elapsed, Duration done) {
    return UniformProgress.decide(SUBMIT.plus(elapsed), SUBMIT, DEADLINE, WORK, done, CHANGEOVER, 5);
  }

  @Test
  void aJobAheadOfUniformProgressWaitsForSpot() {
    UniformProgress.Decision d = at(Duration.ZERO, Duration.ZERO);
    assertThat(d.capacity()).isEqualTo(SpotPolicy.SPOT);
    assertThat(d.why()).startsWith("deadline: ahead of uniform progress");
    // Half-way through the window with half the work checkpointed: still on the line.
    assertThat(at(Duration.ofHours(4), Duration.ofHours(2)).capacity()).isEqualTo(SpotPolicy.SPOT);
  }

  @Test
  void eachDecisionSaysFromWhenTimeAloneChangesIt() {
    UniformProgress.Decision ahead = at(Duration.ZERO, Duration.ZERO);
    // Behind once more than a changeover of work is expected: a little over 10 min into the window.
    assertThat(ahead.until()).isBetween(SUBMIT.plus(Duration.ofMinutes(10)), SUBMIT.plus(Duration.ofMinutes(11)));
    assertThat(decideAt(ahead.until().minusNanos(1)).capacity()).isEqualTo(SpotPolicy.SPOT);
    UniformProgress.Decision behind = decideAt(ahead.until());
    assertThat(behind.capacity()).isEqualTo(SpotPolicy.SPOT_THEN_ON_DEMAND);
    // Then the safety net, once under two changeovers of slack are left: 3 h 50 min in.
    assertThat(behind.until()).isEqualTo(DEADLINE.minus(WORK).minus(CHANGEOVER.multipliedBy(2)).plusNanos(1));
    assertThat(decideAt(behind.until().minusNanos(1)).capacity()).isEqualTo(SpotPolicy.SPOT_THEN_ON_DEMAND);
    UniformProgress.Decision safetyNet = decideAt(behind.until());
    assertThat(safetyNet.capacity()).isEqualTo(SpotPolicy.ON_DEMAND);
    assertThat(safetyNet.until()).isNull();
    // A job that keeps up with its checkpoints is never behind: only the safety net is ahead of it.
    assertThat(UniformProgress.decide(SUBMIT, SUBMIT, DEADLINE, WORK, WORK, CHANGEOVER, 5).until()).isEqualTo(
        DEADLINE.minus(CHANGEOVER.multipliedBy(2)).plusNanos(1));
  }

  private static UniformProgress.Decision decideAt(Instant now) {
    return UniformProgress.decide(now, SUBMIT, DEADLINE, WORK, Duration.ZERO, CHANGEOVER, 5);
  }

  @Test
  void aJobBehindTakesSpotIfThereIsSomeElseOnDemandAtOnce() {
    UniformProgress.Decision d = at(Duration.ofHours(2), Duration.ofMinutes(30)); // expected 1 h
    assertThat(d.capacity()).isEqualTo(SpotPolicy.SPOT_THEN_ON_DEMAND);
    assertThat(d.onDemandAfter()).isZero();
    assertThat(d.why()).contains("behind uniform progress (30 min done of 60 min expected)");
  }

  @Test
  void theSafetyNetBuysOnDemandWhenLessThanTwoChangeoversOfSlackAreLeft() {
    // 4 h 9 min left for 4 h of work: 9 min of slack, under 2 x 5 min.
    UniformProgress.Decision d = at(Duration.ofMinutes(231), Duration.ZERO);
    assertThat(d.capacity()).isEqualTo(SpotPolicy.ON_DEMAND);
    assertThat(d.why()).startsWith("deadline: safety net, 249 min left for 240 min of work");
    // 11 min of slack: not yet (and behind, so spot if there is some).
    assertThat(at(Duration.ofMinutes(229), Duration.ZERO).capacity()).isEqualTo(SpotPolicy.SPOT_THEN_ON_DEMAND);
  }

  @Test
  void aJobThatOneMoreInterruptionWouldHoldRunsOnDemandWhateverItsSlack() {
    UniformProgress.Decision d = UniformProgress.decide(SUBMIT, SUBMIT, DEADLINE, WORK, Duration.ZERO, CHANGEOVER, 0);
    assertThat(d.capacity()).isEqualTo(SpotPolicy.ON_DEMAND);
    assertThat(d.why()).isEqualTo("deadline: no restart left (max-restarts), one more interruption would hold it: "
        + "on-demand to the end");
    assertThat(UniformProgress.decide(SUBMIT, SUBMIT, DEADLINE, WORK, Duration.ZERO, CHANGEOVER, 1).capacity())
        .isEqualTo(SpotPolicy.SPOT);
  }

  @Test
  void aDeadlineFeasibleOnDemandAtSubmissionIsMetWhenEverySpotRunIsInterruptedAtOnce() {
    // The worst case for a job that keeps choosing spot: every spot run is lost to an
    // interruption just before it would checkpoint (no progress), costing a changeover each time.
    // It must still finish on on-demand before its deadline.
    Instant deadline = SUBMIT.plus(WORK).plus(CHANGEOVER).plus(Duration.ofMinutes(40));
    Instant now = SUBMIT;
    Duration done = Duration.ZERO;
    while (true) {
      UniformProgress.Decision d = UniformProgress.decide(now, SUBMIT, deadline, WORK, done, CHANGEOVER, 5);
      if (d.capacity() == SpotPolicy.ON_DEMAND) {
        now = now.plus(CHANGEOVER).plus(WORK.minus(done));
        break;
      }
      now = now.plus(CHANGEOVER).plus(Duration.ofMinutes(3)); // boot, run 3 min, interrupted, nothing kept
    }
    assertThat(now).isBeforeOrEqualTo(deadline);
  }
}
