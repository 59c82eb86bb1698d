package io.squall.core.reserve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.Partition;
import io.squall.core.model.Reservation;
import io.squall.core.sbatch.SbatchParser;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReservationRulesTest {
  private static final Instant NOW = Instant.parse("2026-11-21T08:00:00Z");
  private static final List<String> NODES = List.of("gpu001", "gpu002", "gpu003", "gpu004");
  private static final List<Partition> PARTITIONS = List.of(Partition.of("gpu", NODES).asDefault());

  private static ReservationRules.Draft draft(String name, List<String> nodes, Integer count, Set<Reservation.Flag> flags) {
    return new ReservationRules.Draft(name, NOW, null, Duration.ofMinutes(60), nodes, count, null,
        List.of("alice"), List.of(), flags);
  }

  private static Reservation create(ReservationRules.Draft d, List<Reservation> existing, List<Job> holding) {
    return ReservationRules.create(d, NODES, PARTITIONS, existing, holding, NOW);
  }

  private static Job running(String node, String options) {
    List<String> words = Arrays.asList(options.split(" "));
    var request = new SbatchParser(ZoneOffset.UTC).parse("#!/bin/bash\n", "job.sh", words, NOW).request();
    return Job.pending(7, request, "bob", "ml", "normal", NOW)
        .started(JobKey.of(7), "gpu", List.of(new GpuGrant(node, List.of(0), 1, 0)), NOW.minusSeconds(600));
  }

  @Test
  void namedNodesForAnHourFromNow() {
    Reservation r = create(draft("team", List.of("gpu002", "gpu001"), null, Set.of()), List.of(), List.of());
    assertThat(r.nodes()).containsExactly("gpu001", "gpu002");
    assertThat(r.end()).isEqualTo(NOW.plus(Duration.ofMinutes(60)));
    assertThat(r.flags()).containsExactly(Reservation.Flag.SPEC_NODES);
  }

  @Test
  void aNodeCountIsChosenFromTheDefaultPartitionAvoidingOtherReservationsAndBusyNodes() {
    Reservation other = create(draft("other", List.of("gpu001"), null, Set.of()), List.of(), List.of());
    Reservation r = create(draft(null, null, 2, Set.of()), List.of(other), List.of(running("gpu002", "-t 60")));
    assertThat(r.nodes()).containsExactly("gpu003", "gpu004");
    assertThat(r.partition()).isEqualTo("gpu");
    assertThat(r.name()).isEqualTo("alice_2"); // Slurm's: first user and a number
  }

  @Test
  void refusalsSayWhatWasWrong() {
    assertThatThrownBy(() -> create(new ReservationRules.Draft("x", NOW, null, Duration.ofMinutes(5), List.of("gpu001"),
        null, null, List.of(), List.of(), Set.of()), List.of(), List.of()))
        .hasMessage("Either Users or Accounts must be specified. No reservation created.");
    assertThatThrownBy(() -> create(new ReservationRules.Draft("x", NOW, null, null, List.of("gpu001"), null, null,
        List.of("alice"), List.of(), Set.of()), List.of(), List.of()))
        .hasMessage("Duration or EndTime must be specified. No reservation created.");
    assertThatThrownBy(() -> create(draft("x", null, null, Set.of()), List.of(), List.of()))
        .hasMessage("Nodes or NodeCnt must be specified. No reservation created.");
    assertThatThrownBy(() -> create(draft("x", List.of("gpu009"), null, Set.of()), List.of(), List.of()))
        .hasMessage("Invalid node name specified (gpu009)");
    assertThatThrownBy(() -> create(draft("x", null, 5, Set.of()), List.of(), List.of()))
        .hasMessageStartingWith("Requested node configuration is not available");
    Reservation first = create(draft("first", List.of("gpu001", "gpu002"), null, Set.of()), List.of(), List.of());
    assertThatThrownBy(() -> create(draft("first", List.of("gpu003"), null, Set.of()), List.of(first), List.of()))
        .hasMessageStartingWith("Duplicate reservation name");
    assertThatThrownBy(() -> create(draft("second", List.of("gpu002"), null, Set.of()), List.of(first), List.of()))
        .hasMessageStartingWith("Requested reservation overlaps with another reservation (first holds gpu002");
    assertThatThrownBy(() -> create(draft("x", List.of("gpu003"), null, Set.of()), List.of(),
        List.of(running("gpu003", "-t 60")))).hasMessageStartingWith("Requested nodes are busy (gpu003");
  }

  @Test
  void maintOverlapAndIgnoreJobsRelaxTheChecks() {
    Reservation first = create(draft("first", List.of("gpu001"), null, Set.of()), List.of(), List.of());
    Reservation maint = create(draft("maint", List.of("gpu001"), null,
        Set.of(Reservation.Flag.MAINT, Reservation.Flag.IGNORE_JOBS)), List.of(first), List.of(running("gpu001", "-t 600")));
    assertThat(maint.nodes()).containsExactly("gpu001");
  }

  @Test
  void aJobThatEndsBeforeTheStartDoesNotMakeItsNodeBusy() {
    ReservationRules.Draft later = new ReservationRules.Draft("later", NOW.plus(Duration.ofHours(2)), null,
        Duration.ofMinutes(60), List.of("gpu003"), null, null, List.of("alice"), List.of(), Set.of());
    assertThat(create(later, List.of(), List.of(running("gpu003", "-t 60"))).nodes()).containsExactly("gpu003");
  }

  @Test
  void whoMayUseItAndWhenItGoes() {
    Reservation r = new Reservation("team", NOW, NOW.plus(Duration.ofHours(1)), List.of("gpu001"), null,
        List.of("alice"), List.of("ml"), Set.of());
    assertThat(ReservationRules.refusal(r, "alice", "ml", NOW)).isNull();
    assertThat(ReservationRules.refusal(r, "alice", "research", NOW)).isEqualTo("Access denied to requested reservation");
    assertThat(ReservationRules.refusal(r, "bob", "ml", NOW)).isEqualTo("Access denied to requested reservation");
    assertThat(ReservationRules.refusal(null, "alice", "ml", NOW)).isEqualTo("Requested reservation is invalid");

    List<String> words = List.of("--reservation=team");
    var request = new SbatchParser(ZoneOffset.UTC).parse("#!/bin/bash\n", "job.sh", words, NOW).request();
    Job in = Job.pending(8, request, "alice", "ml", "normal", NOW)
        .started(JobKey.of(8), "gpu", List.of(new GpuGrant("gpu001", List.of(0), 1, 0)), NOW);
    assertThat(ReservationRules.inUse(r, List.of(in))).isTrue();
    Instant after = r.end();
    assertThat(ReservationRules.ended(List.of(r), List.of(in), after)).isEmpty();
    assertThat(ReservationRules.ended(List.of(r), List.of(), after)).containsExactly(r);
    assertThat(ReservationRules.ended(List.of(r), List.of(), after.minusSeconds(1))).isEmpty();
  }
}
