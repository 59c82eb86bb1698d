package io.squall.simulate.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TraceJsonlTest {
  private static final JsonlReader JSONL = new JsonlReader();

  private static Trace read(String text, boolean skipBadRows) {
    return Samples.read(JSONL, "jobs.jsonl", text, skipBadRows);
  }

  @Test
  void readsSquallsOwnFormat() {
    Trace trace = Samples.read(JSONL, "squall-jobs.jsonl");

    assertThat(trace.jobs()).extracting(TraceJob::id)
        .containsExactly("1", "2", "3", "4", "5", "7", "8", "9_1", "9_2", "10");
    // {"id": "2", "submit": "2026-11-26T09:05:33Z", "user": "alice", "account": "vision", "partition": "gpu",
    //  "qos": "normal", "nodes": 2, "gpus_per_node": 8, "runtime_s": 11, "time_limit_s": 1800, "state": "COMPLETED"}
    assertThat(trace.jobs().get(1)).isEqualTo(new TraceJob("2", Instant.parse("2026-11-26T09:05:33Z"), "alice",
        "vision", "gpu", "normal", 2, 8, Duration.ofSeconds(11), Duration.ofMinutes(30), "COMPLETED"));
    // An offset, a fraction of a second, and fields left out
    assertThat(trace.jobs().get(8)).isEqualTo(new TraceJob("9_2", Instant.parse("2026-11-26T09:05:59Z"), "bob",
        "nlp", null, null, 1, 1, Duration.ofMillis(3250), null, null));
    // No id: the line number
    assertThat(trace.jobs().get(9)).extracting(TraceJob::id, TraceJob::gpus, TraceJob::timeLimit)
        .containsExactly("10", 32, null);
  }

  @Test
  void onlySubmitNodesAndRuntimeAreRequired() {
    Trace trace = read("{\"submit\": \"2026-11-26T09:00:00Z\", \"nodes\": 1, \"runtime_s\": 0}\n", false);

    assertThat(trace.jobs()).containsExactly(new TraceJob("1", Instant.parse("2026-11-26T09:00:00Z"), null, null,
        null, null, 1, 0, Duration.ZERO, null, null));
  }

  @Test
  void aBadLineNamesItsLineAndFieldAndCanBeSkipped() {
    String text = """
        {"id": 1, "submit": "2026-11-26T09:00:00Z", "nodes": 1, "gpus_per_node": 8, "runtime_s": 60}
        {"id": 2, "submit": "2026-11-26T09:00:00Z", "nodes": 0, "gpus_per_node": 8, "runtime_s": 60}

        {"id": 3, "submit": "2026-11-26 09:00", "nodes": 1, "gpus_per_node": 8, "runtime_s": 60}
        {"id": 4, "submit": "2026-11-26T09:00:00Z", "nodes": 1, "gpus": 8, "runtime_s": 60}
        {"id": 5, "submit": "2026-11-26T09:00:00Z", "nodes": 1, "gpus_per_node": 8}
        {"id": 6, "submit": "2026-11-26T09:00:00Z", "nodes": 1, "gpus_per_node": 8, "runtime_s": "1h"}
        {"id": 7, "submit": "2026-11-26T09:00:00Z", "nodes": 1, "nodes": 2, "runtime_s": 60}
        {"id": 8, "submit": "2026-11-26T09:00:00Z", "nodes": 1, "runtime_s": 60
        [1, 2]
        {"id": 9, "submit": "2026-11-26T09:00:00Z", "nodes": 1, "runtime_s": 60, "time_limit_s": 0}
        """;

    assertThatThrownBy(() -> read(text, false)).isInstanceOf(TraceException.class)
        .hasMessage("jobs.jsonl line 2, field nodes: 0 nodes: a job has at least 1");

    Trace trace = read(text, true);
    assertThat(trace.jobs()).extracting(TraceJob::id).containsExactly("1");
    assertThat(trace.skipped()).extracting(SkippedRow::line, SkippedRow::field)
        .containsExactly(tuple(2, "nodes"),
            tuple(4, "submit"), tuple(5, "gpus"),
            tuple(6, "runtime_s"), tuple(7, "runtime_s"),
            tuple(8, null), tuple(9, null),
            tuple(10, null), tuple(11, "time_limit_s"));
    assertThat(trace.skipped().get(1).reason())
        .isEqualTo("\"2026-11-26 09:00\" is not an ISO-8601 instant (2026-11-26T10:00:00Z)");
    assertThat(trace.skipped().get(2).reason()).isEqualTo("unknown field (fields: id, submit, user, account, "
        + "partition, qos, nodes, gpus_per_node, runtime_s, time_limit_s, state)");
    assertThat(trace.skipped().get(3).reason()).isEqualTo("is missing");
    assertThat(trace.skipped().get(4).reason()).isEqualTo("\"1h\" is not a number");
    assertThat(trace.skipped().get(5).reason()).startsWith("is not JSON: Duplicate field 'nodes'");
    assertThat(trace.skipped().get(6).reason()).startsWith("is not JSON: Unexpected end-of-input");
    assertThat(trace.skipped().get(7).reason()).isEqualTo("is not a JSON object");
  }

  @Test
  void anEmptyTraceIsAnError() {
    assertThatThrownBy(() -> read("\n\n", false)).isInstanceOf(TraceException.class)
        .hasMessage("jobs.jsonl: no jobs in it");
  }
}
