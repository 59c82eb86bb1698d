package io.squall.simulate.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import org.junit.jupiter.api.Test;

class TracePhillyTest {
  private static final PhillyReader EIGHT_GPU_NODES = new PhillyReader(ZoneOffset.UTC, 8);
  private static final String SAMPLE = "philly-first-200.json";

  private static Trace read(String text, boolean skipBadRows) {
    return Samples.read(EIGHT_GPU_NODES, "philly.json", text, skipBadRows);
  }

  private static TraceJob byId(Trace trace, String id) {
    return trace.jobs().stream().filter(j -> j.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void readsTheBundledPhillyJobs() {
    Trace trace = Samples.read(EIGHT_GPU_NODES, SAMPLE);

    assertThat(trace.jobs()).hasSize(200);
    assertThat(trace.jobs()).isSortedAccordingTo(Comparator.comparing(TraceJob::submit));
    assertThat(trace.jobs().get(0).id()).isEqualTo("application_1504131676014_16904");
    // "id": "application_1506638472019_14199", "num_gpus": 8, "runtime": 3221.05,
    // "submitted_time": "2017-10-07 01:11:39"
    assertThat(byId(trace, "application_1506638472019_14199")).isEqualTo(new TraceJob(
        "application_1506638472019_14199", Instant.parse("2017-10-07T01:11:39Z"), null, null, null, null, 1, 8,
        Duration.ofSeconds(193_263), null, null));
    // "num_gpus": 32, "runtime": 927.0833333333334: 4 nodes of 8, to the millisecond
    assertThat(byId(trace, "application_1506638472019_12697"))
        .extracting(TraceJob::nodes, TraceJob::gpusPerNode, TraceJob::runtime)
        .containsExactly(4, 8, Duration.ofMillis(55_625_000));
    assertThat(byId(trace, "application_1506638472019_14164").gpus()).isEqualTo(4);
  }

  @Test
  void packsGpusOnNodesOfTheSizeGiven() {
    Trace trace = Samples.read(new PhillyReader(ZoneOffset.UTC, 4), SAMPLE);

    assertThat(byId(trace, "application_1506638472019_14199"))
        .extracting(TraceJob::nodes, TraceJob::gpusPerNode).containsExactly(2, 4);
  }

  @Test
  void aBadJobNamesItsLineAndFieldAndCanBeSkipped() {
    String text = """
        [
          {"id": "a", "num_gpus": 8, "runtime": 60, "submitted_time": "2017-10-07 01:11:39"},
          {"id": "b", "num_gpus": "eight", "runtime": 60,
           "submitted_time": "2017-10-07 01:11:39"},
          {"id": "c", "num_gpus": 8, "runtime": 60, "submitted_time": "7/10/2017"},
          {"id": "d", "num_gpus": 8, "submitted_time": "2017-10-07 01:11:39"},
          {"id": "e", "num_gpus": 2.5, "runtime": 60, "submitted_time": "2017-10-07 01:11:39"},
          ["not", "a", "job"]
        ]
        """;

    assertThatThrownBy(() -> read(text, false)).isInstanceOf(TraceException.class)
        .hasMessage("philly.json line 3, field num_gpus: \"eight\" is not a whole number");

    Trace trace = read(text, true);
    assertThat(trace.jobs()).extracting(TraceJob::id).containsExactly("a");
    assertThat(trace.skipped()).containsExactly(
        new SkippedRow(3, "num_gpus", "\"eight\" is not a whole number"),
        new SkippedRow(5, "submitted_time", "\"7/10/2017\" is not a time (yyyy-MM-dd HH:mm:ss)"),
        new SkippedRow(6, "runtime", "is missing"),
        new SkippedRow(7, "num_gpus", "2.5 is not a whole number"),
        new SkippedRow(8, null, "is not a JSON object"));
  }

  @Test
  void jsonThatIsNotWellFormedFailsEvenWhenSkippingBadRows() {
    String text = """
        [
          {"id": "a", "num_gpus": 8, "runtime": 60, "submitted_time": "2017-10-07 01:11:39"},
          {"id": "b", "num_gpus": 8 "runtime": 60}
        ]
        """;

    assertThatThrownBy(() -> read(text, true)).isInstanceOf(TraceException.class)
        .hasMessageStartingWith("philly.json line 3: malformed JSON: Unexpected character");
    assertThatThrownBy(() -> read("[{\"id\": \"a\", \"id\": \"b\"}]", true)).isInstanceOf(TraceException.class)
        .hasMessageStartingWith("philly.json line 1: malformed JSON: Duplicate field 'id'");
  }

  @Test
  void anEmptyTraceOrOneThatIsNotAnArrayIsAnError() {
    assertThatThrownBy(() -> read("", false)).hasMessage("philly.json: empty: expected a JSON array of Philly jobs");
    assertThatThrownBy(() -> read("[]", false)).hasMessage("philly.json: no jobs in it");
    assertThatThrownBy(() -> read("{\"id\": 1}", false))
        .hasMessage("philly.json line 1: expected a JSON array of Philly jobs, found {");
    assertThatThrownBy(() -> read("[] []", false))
        .hasMessage("philly.json line 1: malformed JSON: text after the array of jobs");
  }
}
