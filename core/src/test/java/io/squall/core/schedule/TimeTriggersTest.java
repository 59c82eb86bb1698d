package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.simple;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.Reservation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The instants a cycle over an unchanged snapshot may decide something new: never late. */
class TimeTriggersTest {
  private final Scheduler scheduler = new Scheduler(SchedulerConfig.defaults());

  /**
   * A running job with a 10-minute limit and --signal=USR1@120, a job held by --begin, one that
   * depends on the first's start plus 3 minutes, one in a reservation that opens at 6 minutes.
   */
  private static ClusterSnapshot cluster() {
    Job running = job(1, "--gres=gpu:8 -t 10 --signal=USR1@120", T0.minusSeconds(60))
        .started(JobKey.of(1), "gpu", List.of(new GpuGrant("gpu001", List.of(0, 1, 2, 3, 4, 5, 6, 7), 1, 0)), T0);
    Reservation team = new Reservation("team", T0.plus(Duration.ofMinutes(6)), T0.plus(Duration.ofMinutes(36)),
        List.of("gpu003"), "gpu", List.of("alice"), List.of(), Set.of());
    return simple(3, 1, List.of(running, job(2, "--gres=gpu:8 -t 5 --begin=2026-11-21T08:05:00"),
        job(3, "--gres=gpu:8 -t 5 --dependency=after:1+3"), job(4, "--gres=gpu:8 -t 5 --reservation=team")))
        .withReservations(List.of(team));
  }

  @Test
  void eachTimeTheCycleComparesTheClockWithIsATrigger() {
    ClusterSnapshot s = cluster();
    List<Instant> triggers = new ArrayList<>();
    for (Instant t = scheduler.nextTimeTrigger(s, T0); t != null; t = scheduler.nextTimeTrigger(s, t)) {
      triggers.add(t);
    }
    assertThat(triggers).containsExactly(T0.plus(Duration.ofMinutes(3)), T0.plus(Duration.ofMinutes(5)),
        T0.plus(Duration.ofMinutes(6)), T0.plus(Duration.ofMinutes(8)), T0.plus(Duration.ofMinutes(10)),
        T0.plus(Duration.ofMinutes(36)));
    assertThat(scheduler.nextTimeTrigger(simple(1, 1, List.of(job(9, "--gres=gpu:8"))), T0)).isNull();
  }

  /**
   * Second by second over the scenario: a cycle before the next trigger decides nothing that the
   * cycle at the last trigger did not, and each trigger brings something new (a start, a signal, a
   * timeout): skipping the cycles in between loses nothing.
   */
  @Test
  void nothingNewIsDecidedBetweenTriggers() {
    ClusterSnapshot s = cluster();
    Instant from = T0;
    Set<List<Object>> decided = decisions(scheduler.cycle(s, from));
    while (from.isBefore(T0.plus(Duration.ofMinutes(11)))) {
      Instant next = scheduler.nextTimeTrigger(s, from);
      for (Instant t = from.plusSeconds(1); t.isBefore(next); t = t.plusSeconds(1)) {
        assertThat(decisions(scheduler.cycle(s, t))).as("at %s", t).isSubsetOf(decided);
      }
      Set<List<Object>> then = decisions(scheduler.cycle(s, next));
      assertThat(then).as("at %s", next).isNotEqualTo(decided);
      decided = then;
      from = next;
    }
  }

  /** What a plan decides, without the instants it carries (an Eligible's, a Start's end, a Wait's expected start). */
  private static Set<List<Object>> decisions(Plan plan) {
    Set<List<Object>> out = new HashSet<>();
    for (Action a : plan.actions()) {
      if (a instanceof Action.Start st) {
        out.add(List.of("start", st.job(), st.grants()));
      } else if (a instanceof Action.Wait w) {
        out.add(List.of("wait", w.job(), w.reason()));
      } else if (a instanceof Action.Preempt p) {
        out.add(List.of("preempt", p.job(), p.forJob()));
      } else {
        out.add(List.of(a.getClass().getSimpleName(), a.job())); // Eligible, Timeout, LimitSignal, CapacityDemand
      }
    }
    return out;
  }
}
