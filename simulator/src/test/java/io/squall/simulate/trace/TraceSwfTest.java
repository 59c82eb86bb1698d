package io.squall.simulate.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceSwfTest {
  private static final SwfReader ONE_GPU_PER_PROCESSOR = new SwfReader(1, 8);
  private static final String GAIA = "UniLu-Gaia-2014-1-first-200.swf";

  private static Trace read(String text, boolean skipBadRows) {
    return Samples.read(ONE_GPU_PER_PROCESSOR, "log.swf", text, skipBadRows);
  }

  @Test
  void readsTheGaiaLogFromItsUnixStartTime() {
    Trace trace = Samples.read(ONE_GPU_PER_PROCESSOR, GAIA);

    assertThat(trace.jobs()).hasSize(200);
    assertThat(trace.leftOut()).isEmpty();
    // ; UnixStartTime: 1400749079
    // 1 0 477768 35541 160 32096 89734 160 108000 -1 1 1 1 1 1 -1 -1 -1
    assertThat(trace.jobs().get(0)).isEqualTo(new TraceJob("1", Instant.parse("2014-05-22T08:57:59Z"), "1", "1",
        null, "1", 20, 8, Duration.ofSeconds(35541), Duration.ofHours(30), "COMPLETED"));
    // 2 83558 1 432024 36 1320 7566 36 432000 -1 0 2 2 2 1 -1 -1 -1: 36 GPUs on 5 nodes of 8 at most
    TraceJob second = trace.jobs().get(1);
    assertThat(second.submit()).isEqualTo(Instant.parse("2014-05-23T08:10:37Z"));
    assertThat(second).extracting(TraceJob::nodes, TraceJob::gpusPerNode, TraceJob::state, TraceJob::user)
        .containsExactly(5, 8, "FAILED", "2");
    // 77 431217 2 18491 4 324 256 4 43200 -1 0 11 11 66 0 -1 -1 -1: queue 0, the interactive one
    assertThat(trace.jobs().get(76)).extracting(TraceJob::id, TraceJob::qos, TraceJob::gpus)
        .containsExactly("77", "0", 4);
    assertThat(trace.jobs()).isSortedAccordingTo(Comparator.comparing(TraceJob::submit));
  }

  @Test
  void processorsPerGpuSetsHowManyGpusAJobBecomes() {
    Trace trace = Samples.read(new SwfReader(12, 8), GAIA);

    // 160 processors: 14 GPUs (13.3 rounded up), on 2 nodes of 7
    assertThat(trace.jobs().get(0)).extracting(TraceJob::nodes, TraceJob::gpusPerNode).containsExactly(2, 7);
    // 1 processor: still 1 GPU
    assertThat(trace.jobs().get(27)).extracting(TraceJob::id, TraceJob::gpus).containsExactly("28", 1);
  }

  @Test
  void withoutAStartTimeInTheHeaderSubmitTimesCountFromTheUnixEpoch() {
    Trace trace = read("""
        ; Version: 2.2
        ; UnixStartTime: UNKNOWN
        1 100 5 60 16 -1 -1 16 3600 -1 1 7 3 -1 2 4 -1 -1
        """, false);

    assertThat(trace.jobs().get(0)).isEqualTo(new TraceJob("1", Instant.parse("1970-01-01T00:01:40Z"), "7", "3",
        "4", "2", 2, 8, Duration.ofMinutes(1), Duration.ofHours(1), "COMPLETED"));
  }

  @Test
  void takesRequestedProcessorsWhenAllocatedAreUnknownAndLeavesOutJobsWithoutRunTimeOrProcessors() {
    Trace trace = read("""
        ; UnixStartTime: 1000000000
        1 0 10 100.5 -1 -1 -1 4 -1 -1 5 -1 -1 -1 -1 -1 -1 -1
        2 10 -1 -1 8 -1 -1 8 3600 -1 5 1 1 -1 1 -1 -1 -1
        3 20 0 30 -1 -1 -1 -1 3600 -1 0 1 1 -1 1 -1 -1 -1
        4 30 0 40 0 -1 -1 0 3600 -1 1 1 1 -1 1 -1 -1 -1
        """, false);

    assertThat(trace.jobs()).extracting(TraceJob::id, TraceJob::gpus, TraceJob::runtime, TraceJob::timeLimit,
        TraceJob::state, TraceJob::user).containsExactly(tuple("1", 4, Duration.ofMillis(100_500), null,
            "CANCELLED", null));
    assertThat(trace.leftOut()).containsExactly(Map.entry("no processors", 2), Map.entry("no run time", 1));
  }

  @Test
  void aBadRowNamesItsLineAndFieldAndCanBeSkipped() {
    String text = """
        ; UnixStartTime: 1000000000
        1 0 10 100 4 -1 -1 4 3600 -1 1 1 1 -1 1 -1 -1 -1
        2 5 10 ten 4 -1 -1 4 3600 -1 1 1 1 -1 1 -1 -1 -1
        3 6 10 100 4 -1 -1 4 3600 -1 1 1 1 -1 1
        4 7 10 100 4 -1 -1 4 3600 -1 9 1 1 -1 1 -1 -1 -1
        5 8 10 100 4.5 -1 -1 4 3600 -1 1 1 1 -1 1 -1 -1 -1
        6 -3 10 100 4 -1 -1 4 3600 -1 1 1 1 -1 1 -1 -1 -1
        """;

    assertThatThrownBy(() -> read(text, false)).isInstanceOf(TraceException.class)
        .hasMessage("log.swf line 3, field 4 (Run Time): \"ten\" is not a number");

    Trace trace = read(text, true);
    assertThat(trace.jobs()).extracting(TraceJob::id).containsExactly("1");
    assertThat(trace.skipped()).containsExactly(
        new SkippedRow(3, "4 (Run Time)", "\"ten\" is not a number"),
        new SkippedRow(4, null, "has 15 fields, SWF has 18"),
        new SkippedRow(5, "11 (Status)", "\"9\" is not an SWF status (-1, 0 to 5)"),
        new SkippedRow(6, "5 (Number of Allocated Processors)", "\"4.5\" is not a whole number"),
        new SkippedRow(7, "2 (Submit Time)", "\"-3\" is before the log's start"));
  }

  @Test
  void aLogOfCommentsAloneIsEmpty() {
    assertThatThrownBy(() -> read("; Version: 2.2\n; UnixStartTime: 0\n", false))
        .isInstanceOf(TraceException.class).hasMessage("log.swf: no jobs in it");
  }
}
