package io.squall.simulate.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TraceSacctTest {
  private static final SacctReader UTC = new SacctReader(ZoneOffset.UTC);
  /** The header of the sacct command the README gives, as Slurm prints it. */
  private static final String SLURM_HEADER =
      "JobID|User|Account|Partition|Submit|Start|End|Elapsed|Timelimit|NNodes|AllocTRES|ReqTRES|State|QOS\n";

  private static Trace read(String text, boolean skipBadRows) {
    return Samples.read(UTC, "jobs.sacct", text, skipBadRows);
  }

  @Test
  void readsWhatSquallsOwnSacctPrinted() {
    Trace trace = Samples.read(UTC, "squall-sacct.txt");

    assertThat(trace.jobs()).extracting(TraceJob::id)
        .containsExactly("1", "2", "3", "4", "5", "7", "8", "9_1", "9_2");
    assertThat(trace.skipped()).isEmpty();
    assertThat(trace.leftOut()).isEmpty();
    // 2|alice|vision|gpu|2026-11-26T09:05:33|2026-11-26T09:05:33|2026-11-26T09:05:45|00:00:11|2|gres/gpu=16,node=2|COMPLETED
    assertThat(trace.jobs().get(1)).isEqualTo(new TraceJob("2", Instant.parse("2026-11-26T09:05:33Z"), "alice",
        "vision", "gpu", null, 2, 8, Duration.ofSeconds(11), null, "COMPLETED"));
    // 7|bob|nlp|gpu|2026-11-26T09:05:52|2026-11-26T09:05:52|2026-11-26T09:06:53|00:01:00|1|gres/gpu=2,node=1|TIMEOUT
    TraceJob overtime = trace.jobs().get(5);
    assertThat(overtime.runtime()).isEqualTo(Duration.ofMinutes(1));
    assertThat(overtime.gpus()).isEqualTo(2);
    assertThat(overtime.state()).isEqualTo("TIMEOUT");
    assertThat(trace.jobs()).extracting(TraceJob::state).contains("FAILED", "CANCELLED");
  }

  @Test
  void submitTimesAreReadInTheZoneSacctPrintedThemIn() {
    Trace trace = Samples.read(new SacctReader(ZoneId.of("Europe/Luxembourg")), "squall-sacct.txt");

    assertThat(trace.jobs().get(0).submit()).isEqualTo(Instant.parse("2026-11-26T08:05:29Z"));
  }

  @Test
  void findsColumnsByNameInAnyOrderAndCase() {
    Trace trace = read("""
        state|QOS|elapsed|NNODES|ReqTRES|AllocTRES|Timelimit|Submit|JobID|Account
        COMPLETED|high|1-02:03:04|4|billing=512,cpu=512,gres/gpu=32,mem=2000G,node=4|billing=512,cpu=512,gres/gpu:h100=32,mem=2000G,node=4|2-00:00:00|2026-11-20T08:00:00|4711|vision
        """, false);

    assertThat(trace.jobs()).containsExactly(new TraceJob("4711", Instant.parse("2026-11-20T08:00:00Z"), null,
        "vision", null, "high", 4, 8, Duration.parse("PT26H3M4S"), Duration.ofDays(2), "COMPLETED"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "00:00:06; PT6S", "01:02:03; PT1H2M3S", "1-00:00:00; PT24H", "12-03:04:05; PT291H4M5S",
      "05:30; PT5M30S", "00:00:00; PT0S"})
  void readsSacctDurations(String text, String expected) {
    assertThat(SlurmDuration.parse(text)).isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {"1-2:3", "1:2", "00:60:00", "00:00:60", "1-24:00:00", "1-05:00", "abc", "''",
      "-01:00:00", "1.5:00"})
  void refusesWhatIsNotASacctDuration(String text) {
    assertThatThrownBy(() -> SlurmDuration.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("\"" + text + "\" is not a Slurm duration ([D-]HH:MM:SS)");
  }

  @Test
  void aTimeLimitOfUnlimitedOrThePartitionsIsUnknown() {
    assertThat(SlurmDuration.limit("UNLIMITED")).isNull();
    assertThat(SlurmDuration.limit("Partition_Limit")).isNull();
    assertThat(SlurmDuration.limit("")).isNull();
    assertThat(SlurmDuration.limit("2-00:00:00")).isEqualTo(Duration.ofDays(2));
    assertThat(SlurmDuration.limit("30:00")).isEqualTo(Duration.ofMinutes(30));
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "billing=128,cpu=128,gres/gpu=16,mem=1000G,node=2; 16",
      "gres/gpu:h100=16,node=2; 16",
      "cpu=64,gres/gpu=8,gres/gpu:h100=8,node=1; 8", // the total beside its typed count: not twice
      "gres/gpu:a100=2,gres/gpu:h100=4; 6",
      "cpu=4,mem=16G,node=1; 0",
      "'' ; 0"})
  void countsGpusInTres(String tres, int gpus) {
    assertThat(SacctTres.gpus(tres.strip())).isEqualTo(gpus);
  }

  @Test
  void takesRequestedGpusWhenNoneWereAllocatedAndSpreadsThemOverTheNodes() {
    Trace trace = read(SLURM_HEADER + """
        5|carol|nlp|gpu|2026-11-20T08:00:00|2026-11-20T08:01:00|2026-11-20T09:01:00|01:00:00|UNLIMITED|2||billing=24,cpu=24,gres/gpu=12,node=2|COMPLETED|normal
        6|carol|nlp|gpu|2026-11-20T08:00:00|2026-11-20T08:01:00|2026-11-20T09:01:00|01:00:00|UNLIMITED|3|gres/gpu=10,node=3|gres/gpu=10,node=3|COMPLETED|normal
        """, false);

    assertThat(trace.jobs()).extracting(TraceJob::nodes, TraceJob::gpusPerNode)
        .containsExactly(tuple(2, 6), tuple(3, 4));
    assertThat(trace.jobs().get(0).timeLimit()).isNull();
  }

  @Test
  void leavesOutStepsJobsThatNeverStartedAndJobsStillRunning() {
    Trace trace = read(SLURM_HEADER + """
        10|dan|vision|gpu|2026-11-20T08:00:00|2026-11-20T08:00:05|2026-11-20T08:10:05|00:10:00|01:00:00|1|gres/gpu=8,node=1|gres/gpu=8,node=1|COMPLETED|normal
        10.batch||vision||2026-11-20T08:00:05|2026-11-20T08:00:05|2026-11-20T08:10:05|00:10:00||1|cpu=2,gres/gpu=8,mem=8G,node=1||COMPLETED|
        10.0||vision||2026-11-20T08:00:06|2026-11-20T08:00:06|2026-11-20T08:10:05|00:09:59||1|cpu=2,gres/gpu=8,mem=8G,node=1||COMPLETED|
        11|dan|vision|gpu|2026-11-20T08:01:00|None|2026-11-20T08:02:00|00:00:00|01:00:00|1||gres/gpu=8,node=1|CANCELLED by 1000|normal
        12|dan|vision|gpu|2026-11-20T08:01:00|Unknown|Unknown|00:00:00|01:00:00|4||gres/gpu=32,node=4|PENDING|normal
        13_[2-9]|dan|vision|gpu|2026-11-20T08:01:00|Unknown|Unknown|00:00:00|01:00:00|1||gres/gpu=1,node=1|PENDING|normal
        14|dan|vision|gpu|2026-11-20T08:02:00|2026-11-20T08:02:01|Unknown|00:30:00|01:00:00|1|gres/gpu=8,node=1|gres/gpu=8,node=1|RUNNING|normal
        15|dan|vision|gpu|2026-11-20T08:03:00|2026-11-20T08:03:01|2026-11-20T08:03:31|00:00:30|01:00:00|1|gres/gpu=8,node=1|gres/gpu=8,node=1|CANCELLED by 1000|normal
        """, false);

    assertThat(trace.jobs()).extracting(TraceJob::id).containsExactly("10", "15");
    assertThat(trace.leftOut()).containsExactly(Map.entry("job step", 2), Map.entry("never started", 3),
        Map.entry("still running", 1));
    assertThat(trace.leftOutCount()).isEqualTo(6);
  }

  @Test
  void withoutAStartColumnACancelledJobThatNeverRanIsLeftOut() {
    Trace trace = read("""
        JobID|Submit|Elapsed|NNodes|AllocTRES|State
        1|2026-11-20T08:00:00|00:00:00|1||CANCELLED by 1000
        2|2026-11-20T08:00:00|00:05:00|1|gres/gpu=1|CANCELLED by 1000
        """, false);

    assertThat(trace.jobs()).extracting(TraceJob::id).containsExactly("2");
    assertThat(trace.leftOut()).containsExactly(Map.entry("never started", 1));
  }

  @Test
  void aBadRowNamesItsLineAndFieldAndCanBeSkipped() {
    String text = SLURM_HEADER + """
        20|eve|nlp|gpu|2026-11-20T08:00:00|2026-11-20T08:00:01|2026-11-20T08:01:01|00:01:00|01:00:00|1|gres/gpu=1|gres/gpu=1|COMPLETED|normal
        21|eve|nlp|gpu|2026-11-20T08:00:00|2026-11-20T08:00:01|2026-11-20T08:01:01|1-2:3|01:00:00|1|gres/gpu=1|gres/gpu=1|COMPLETED|normal
        22|eve|nlp|gpu|20-11-2026 08:00|2026-11-20T08:00:01|2026-11-20T08:01:01|00:01:00|01:00:00|1|gres/gpu=1|gres/gpu=1|COMPLETED|normal
        23|eve|nlp|gpu|2026-11-20T08:00:00|2026-11-20T08:00:01|2026-11-20T08:01:01|00:01:00|01:00:00|two|gres/gpu=1|gres/gpu=1|COMPLETED|normal
        24|eve|nlp|gpu|2026-11-20T08:00:00|2026-11-20T08:00:01|2026-11-20T08:01:01|00:01:00|01:00:00|1|gres/gpu=1
        25|eve|nlp|gpu|2026-11-20T08:00:00|2026-11-20T08:00:01|2026-11-20T08:01:01|00:01:00|01:00:00|1|gres/gpu=one|gres/gpu=1|COMPLETED|normal
        """;

    assertThatThrownBy(() -> read(text, false)).isInstanceOf(TraceException.class)
        .hasMessage("jobs.sacct line 3, field Elapsed: \"1-2:3\" is not a Slurm duration ([D-]HH:MM:SS)");

    Trace trace = read(text, true);
    assertThat(trace.jobs()).extracting(TraceJob::id).containsExactly("20");
    assertThat(trace.skipped()).containsExactly(
        new SkippedRow(3, "Elapsed", "\"1-2:3\" is not a Slurm duration ([D-]HH:MM:SS)"),
        new SkippedRow(4, "Submit", "\"20-11-2026 08:00\" is not a sacct time (YYYY-MM-DDTHH:MM:SS)"),
        new SkippedRow(5, "NNodes", "\"two\" is not a whole number"),
        new SkippedRow(6, null, "has 11 fields, the header 14"),
        new SkippedRow(7, "AllocTRES", "\"gres/gpu=one\" is not a GPU count (gres/gpu=N)"));
  }

  @Test
  void aHeaderWithoutANeededColumnSaysWhichIsMissing() {
    assertThatThrownBy(() -> read("JobID|User|Submit|NNodes|State\n1|a|2026-11-20T08:00:00|1|COMPLETED\n", false))
        .isInstanceOf(TraceException.class)
        .hasMessage("jobs.sacct line 1: the header has no Elapsed, AllocTRES or ReqTRES columns (sacct -P --format "
            + "needs JobID,Submit,Elapsed,NNodes and AllocTRES or ReqTRES)");
  }

  @Test
  void anEmptyTraceOrOneNotPipeSeparatedIsAnError() {
    assertThatThrownBy(() -> read("", false)).isInstanceOf(TraceException.class)
        .hasMessageStartingWith("jobs.sacct: empty: expected sacct -P output, its header line first");
    assertThatThrownBy(() -> read("JobID|Submit|Elapsed|NNodes|AllocTRES\n", false))
        .isInstanceOf(TraceException.class).hasMessage("jobs.sacct: no jobs in it");
    assertThatThrownBy(() -> read("       JobID    Elapsed \n------------ ---------- \n", false))
        .isInstanceOf(TraceException.class)
        .hasMessageContaining("line 1: the header").hasMessageEndingWith("is not |-separated: run sacct with -P "
            + "(--parsable2)");
  }

  @Test
  void aTraceWhoseJobsWereAllLeftOutOrSkippedSaysWhy() {
    assertThatThrownBy(() -> read("""
        JobID|Submit|Start|Elapsed|NNodes|AllocTRES
        1.batch|2026-11-20T08:00:00|2026-11-20T08:00:00|00:01:00|1|
        2|2026-11-20T08:00:00|Unknown|00:00:00|1|
        3|2026-11-20T08:00:00|2026-11-20T08:00:00|xx|1|
        """, true)).isInstanceOf(TraceException.class)
        .hasMessage("jobs.sacct: no job to replay: 2 left out (job step 1, never started 1), 1 bad row skipped");
  }

  @Test
  void readsParsableOutputWithItsTrailingBarAndRepeatedHeaders() {
    Trace trace = read("""
        JobID|Submit|Elapsed|NNodes|AllocTRES|
        1|2026-11-20T08:00:00|00:01:00|1|gres/gpu=2|
        JobID|Submit|Elapsed|NNodes|AllocTRES|
        2|2026-11-20T07:00:00|00:02:00|1|gres/gpu=4|
        """, false);

    assertThat(trace.jobs()).extracting(TraceJob::id, TraceJob::gpusPerNode)
        .containsExactly(tuple("2", 4), tuple("1", 2));
  }
}
