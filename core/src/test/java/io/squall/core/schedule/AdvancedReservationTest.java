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
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Advanced reservations in the cycle: others stay off their nodes for the window, their jobs stay in it. */
class AdvancedReservationTest {
  private final Scheduler scheduler = new Scheduler(SchedulerConfig.defaults());

  private static Reservation reservation(String name, Instant start, Duration length, List<String> nodes,
      Reservation.Flag... flags) {
    Set<Reservation.Flag> f = flags.length == 0 ? Set.of() : EnumSet.of(flags[0], flags);
    return new Reservation(name, start, start.plus(length), nodes, "gpu", List.of("alice"), List.of(), f);
  }

  private static ClusterSnapshot cluster(List<Job> jobs, Reservation... reservations) {
    return simple(2, 2, jobs).withReservations(List.of(reservations));
  }

  private static Action.Wait waitOf(Plan plan, long id) {
    return plan.waits().stream().filter(w -> w.job().equals(JobKey.of(id))).findFirst().orElse(null);
  }

  private static Action.Start startOf(Plan plan, long id) {
    return plan.starts().stream().filter(s -> s.job().equals(JobKey.of(id))).findFirst().orElse(null);
  }

  private static List<String> nodesOf(Action.Start s) {
    return s.grants().stream().map(GpuGrant::node).toList();
  }

  @Test
  void aJobWithoutTheReservationMustEndBeforeItsWindowOpens() {
    Reservation maint = reservation("maint", T0.plus(Duration.ofMinutes(60)), Duration.ofMinutes(120),
        List.of("gpu001"));
    // Both nodes for 30 minutes ends before the window: it starts. For 90 it would run into it.
    Plan plan = scheduler.cycle(cluster(List.of(job(1, "-N 2 --gres=gpu:8 -t 30")), maint), T0);
    assertThat(startOf(plan, 1)).isNotNull();

    plan = scheduler.cycle(cluster(List.of(job(2, "-N 2 --gres=gpu:8 -t 90")), maint), T0);
    assertThat(startOf(plan, 2)).isNull();
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.RESOURCES);
    // Backfill knows the window: the gang's expected start is its end.
    assertThat(waitOf(plan, 2).expectedStart()).isEqualTo(maint.end());
  }

  @Test
  void aMaintenanceReservationGivesSlurmsReason() {
    Reservation maint = reservation("maint", T0.plus(Duration.ofMinutes(60)), Duration.ofMinutes(120),
        List.of("gpu001", "gpu002"), Reservation.Flag.MAINT);
    Plan plan = scheduler.cycle(cluster(List.of(job(1, "--gres=gpu:8 -t 90")), maint), T0);
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.RESERVED_FOR_MAINTENANCE);
    assertThat(waitOf(plan, 1).reason().slurmName()).isEqualTo("ReqNodeNotAvail, Reserved for maintenance");
  }

  @Test
  void anActiveReservationKeepsOtherJobsOffItsIdleNodes() {
    Reservation r = reservation("team", T0, Duration.ofHours(4), List.of("gpu001"));
    Plan plan = scheduler.cycle(cluster(List.of(job(1, "--gres=gpu:8 -t 60"), job(2, "--gres=gpu:8 -t 60")), r), T0);
    assertThat(nodesOf(startOf(plan, 1))).containsExactly("gpu002");
    assertThat(startOf(plan, 2)).isNull();
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.RESOURCES);
  }

  @Test
  void aJobInAReservationWaitsForItsStartThenRunsOnlyOnItsNodesUntilItsEnd() {
    Reservation r = reservation("team", T0.plus(Duration.ofMinutes(60)), Duration.ofMinutes(60), List.of("gpu002"));
    List<Job> jobs = List.of(job(1, "--reservation=team --gres=gpu:8 -t 120"));
    Plan before = scheduler.cycle(cluster(jobs, r), T0);
    assertThat(startOf(before, 1)).isNull();
    assertThat(waitOf(before, 1).reason()).isEqualTo(PendingReason.RESERVATION);

    Plan at = scheduler.cycle(cluster(jobs, r), r.start());
    Action.Start s = startOf(at, 1);
    assertThat(nodesOf(s)).containsExactly("gpu002"); // gpu001 is idle too, but not the reservation's
    assertThat(s.endLimit()).isEqualTo(r.end()); // its 120 minutes are cut at the reservation's end
  }

  @Test
  void aJobInAReservationTimesOutWhenTheReservationEnds() {
    Reservation r = reservation("team", T0, Duration.ofMinutes(60), List.of("gpu001"));
    Harness h = new Harness(SchedulerConfig.defaults(), cluster(List.of(job(1, "--reservation=team --gres=gpu:8 -t 120")), r), T0);
    h.cycle();
    assertThat(h.job(JobKey.of(1)).state()).isEqualTo(io.squall.core.model.JobState.RUNNING);
    h.advance(Duration.ofMinutes(59));
    assertThat(h.cycle().of(Action.Timeout.class)).isEmpty();
    h.advance(Duration.ofMinutes(1));
    assertThat(h.cycle().of(Action.Timeout.class)).extracting(Action.Timeout::job).containsExactly(JobKey.of(1));
  }

  @Test
  void aGangLargerThanItsReservationWaitsWithoutAskingForMachines() {
    Reservation r = reservation("team", T0, Duration.ofMinutes(60), List.of("gpu001"));
    Plan plan = scheduler.cycle(cluster(List.of(job(1, "--reservation=team -N 2 --gres=gpu:8 -t 30")), r), T0);
    assertThat(startOf(plan, 1)).isNull();
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.RESOURCES);
    assertThat(plan.of(Action.CapacityDemand.class)).isEmpty();
  }

  @Test
  void flexLetsItsJobsStartBeforeItAndUseOtherNodes() {
    Reservation r = reservation("team", T0.plus(Duration.ofMinutes(60)), Duration.ofMinutes(60), List.of("gpu001"),
        Reservation.Flag.FLEX);
    Plan plan = scheduler.cycle(cluster(List.of(job(1, "--reservation=team -N 2 --gres=gpu:8 -t 180")), r), T0);
    Action.Start s = startOf(plan, 1);
    assertThat(nodesOf(s)).containsExactlyInAnyOrder("gpu001", "gpu002");
    assertThat(s.endLimit()).isEqualTo(T0.plus(Duration.ofMinutes(180)));
    // Others still stay out of its window.
    plan = scheduler.cycle(cluster(List.of(job(2, "-N 2 --gres=gpu:8 -t 180")), r), T0);
    assertThat(startOf(plan, 2)).isNull();
  }

  @Test
  void aJobWhoseReservationIsGoneWaitsWithSlurmsReason() {
    Plan plan = scheduler.cycle(cluster(List.of(job(1, "--reservation=gone --gres=gpu:1"))), T0);
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.RESERVATION_DELETED);
  }

  @Test
  void jobsOfTheReservationGoFirstInTheirPartition() {
    Reservation r = reservation("team", T0, Duration.ofHours(2), List.of("gpu001", "gpu002"), Reservation.Flag.FLEX);
    // Job 1 is older; job 2 uses the reservation and is considered first.
    Plan plan = scheduler.cycle(cluster(List.of(job(1, "-N 2 --gres=gpu:8 -t 30"),
        job(2, "--reservation=team -N 2 --gres=gpu:8 -t 30")), r), T0);
    assertThat(startOf(plan, 2)).isNotNull();
    assertThat(startOf(plan, 1)).isNull();
  }

  @Test
  void aJobPreemptsOnlyOnNodesAReservationLetsItUse() {
    List<io.squall.core.model.Node> nodes = Fixtures.nodes("gpu", 4, 4);
    List<io.squall.core.model.Partition> tiers = List.of(
        io.squall.core.model.Partition.of("spot", Fixtures.names(nodes))
            .withPriority(1, 1, io.squall.core.model.PreemptMode.REQUEUE, 0),
        io.squall.core.model.Partition.of("gpu", Fixtures.names(nodes)).asDefault()
            .withPriority(1, 2, io.squall.core.model.PreemptMode.OFF, 0));
    List<Job> jobs = new java.util.ArrayList<>();
    for (int k = 1; k <= 4; k++) {
      // The jobs on the reserved nodes have run least: without the reservation they would be the victims.
      jobs.add(job(k, "-p spot --gres=gpu:8").started(JobKey.of(k), "spot", List.of(new GpuGrant("gpu00" + k,
          List.of(0, 1, 2, 3, 4, 5, 6, 7), 1, 0)), T0.minus(Duration.ofHours(5 - k))));
    }
    jobs.add(job(9, "-p gpu -N 2 --gres=gpu:8 -t 60"));
    Reservation r = reservation("team", T0, Duration.ofHours(4), List.of("gpu003", "gpu004"));
    Plan plan = scheduler.cycle(Fixtures.snapshot(nodes, tiers, jobs).withReservations(List.of(r)), T0);
    assertThat(plan.of(Action.Preempt.class)).extracting(Action.Preempt::job)
        .containsExactlyInAnyOrder(JobKey.of(1), JobKey.of(2));
  }
}
