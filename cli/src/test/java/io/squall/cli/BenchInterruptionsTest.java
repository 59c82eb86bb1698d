package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.cli.fake.FakeSquall;
import io.squall.simulate.TraceReclaims;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchInterruptionsTest {
  private final Cli cli = new Cli(FakeSquall.deadUrl());

  private static JsonNode lastLine(String out) throws Exception {
    String[] lines = out.strip().split("\n");
    return new ObjectMapper().readTree(lines[lines.length - 1]);
  }

  @Test
  void aSmallRunEndsWithBothRunsFiguresAsOneJsonLine() throws Exception {
    Cli.Result r = cli.run("bench", "interruptions", "--jobs", "30", "--nodes", "32", "--interruptions-per-hour",
        "0.5", "--seed", "1");
    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    JsonNode line = lastLine(r.out());
    assertThat(line.fieldNames()).toIterable().containsExactly("interruptions", "requeued", "lost_gpu_hours",
        "lost_gpu_hours_no_signal", "median_requeue_to_restart_s", "median_first_restart_s",
        "stranded_node_hours", "boot_wait_lost_node_hours", "jobs_completed", "dollars_billed",
        "lower_bound_dollars", "cost_ratio", "gap_price_dollars", "gap_boot_dollars", "gap_rework_dollars",
        "gap_unfinished_dollars", "gap_overhead_dollars");
    assertThat(line.get("cost_ratio").asDouble()).isGreaterThan(1);
    BenchInterruptionsTest.assertGapAddsUp(line);
    assertThat(line.get("interruptions").asInt()).isPositive();
    assertThat(line.get("requeued").asInt()).isPositive();
    assertThat(line.get("lost_gpu_hours").asDouble()).isPositive()
        .isLessThanOrEqualTo(line.get("lost_gpu_hours_no_signal").asDouble());
    assertThat(line.get("median_requeue_to_restart_s").asDouble()).isPositive()
        .isGreaterThanOrEqualTo(line.get("median_first_restart_s").asDouble());
    assertThat(line.get("jobs_completed").asInt()).isBetween(1, 30);
    assertThat(r.out()).contains("setup: 30 Philly jobs (seed 1,", "on 32 p5.48xlarge nodes",
        "c calibrated so that run 1 sees 0.5 interruptions per spot node-hour",
        "zones follow (trace@start tick): use1-az1=", "run 1, jobs checkpoint on the signal", "run 2, jobs ignore it");
    assertThat(r.out()).containsPattern("\\nc = \\d+\\.\\d{3}, found in \\d run\\(s\\) of run 1");
    // The same seed, the same figures; another seed, others.
    assertThat(lastLine(cli.run("bench", "interruptions", "--jobs", "30", "--nodes", "32",
        "--interruptions-per-hour", "0.5", "--seed", "1").out())).isEqualTo(line);
    assertThat(lastLine(cli.run("bench", "interruptions", "--jobs", "30", "--nodes", "32",
        "--interruptions-per-hour", "0.5", "--seed", "2").out())).isNotEqualTo(line);
  }

  /** The parts of the gap over the lower bound add up to it (each rounded to the dollar). */
  static void assertGapAddsUp(JsonNode line) {
    long parts = 0;
    for (String part : List.of("price", "boot", "rework", "unfinished", "overhead")) {
      long v = line.get("gap_" + part + "_dollars").asLong();
      assertThat(v).as(part).isNotNegative();
      parts += v;
    }
    assertThat(parts).isCloseTo(line.get("dollars_billed").asLong() - line.get("lower_bound_dollars").asLong(),
        org.assertj.core.data.Offset.offset(6L));
    assertThat(line.get("gap_boot_dollars").asLong()).isPositive(); // every launched node boots before its job runs
  }

  @Test
  void noInterruptionsNoLoss() throws Exception {
    Cli.Result r = cli.run("bench", "interruptions", "--jobs", "20", "--nodes", "16", "--interruptions-per-hour", "0");
    assertThat(r.exit()).isZero();
    com.fasterxml.jackson.databind.node.ObjectNode line = (com.fasterxml.jackson.databind.node.ObjectNode) lastLine(r.out());
    assertThat(line.get("cost_ratio").asDouble()).isGreaterThan(1); // boots and idle time cost, whatever happens
    assertThat(line.get("gap_rework_dollars").asLong()).isZero();
    assertThat(line.get("gap_unfinished_dollars").asLong()).isZero();
    line.remove(List.of("dollars_billed", "lower_bound_dollars", "cost_ratio", "gap_price_dollars", "gap_boot_dollars",
        "gap_rework_dollars", "gap_unfinished_dollars", "gap_overhead_dollars"));
    assertThat(line.toString()).isEqualTo("{\"interruptions\":0,\"requeued\":0,\"lost_gpu_hours\":0.0,"
        + "\"lost_gpu_hours_no_signal\":0.0,\"median_requeue_to_restart_s\":0.0,"
        + "\"median_first_restart_s\":0.0,\"stranded_node_hours\":0.0,\"boot_wait_lost_node_hours\":0.0,\"jobs_completed\":20}");
  }

  @Test
  void badOptionsAreRefusedWithWhatTheyNeed() {
    Cli.Result r = cli.run("bench", "interruptions", "--interruptions-per-hour", "-0.5");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench interruptions: --interruptions-per-hour needs a decimal number from "
        + "0 to 60 (per spot node-hour, e.g. 0.5), not '-0.5'\n");
    for (String bad : new String[] {"abc", "NaN", "Infinity", "1e3", "0x1p1", "61", "1,5", ""}) {
      r = cli.run("bench", "interruptions", "--interruptions-per-hour", bad);
      assertThat(r.exit()).as(bad).isEqualTo(2);
      assertThat(r.err()).as(bad).contains("--interruptions-per-hour needs a decimal number from 0 to 60");
    }
    r = cli.run("bench", "interruptions", "--jobs", "0");
    assertThat(r.err()).isEqualTo("squall bench interruptions: --jobs needs a positive whole number, not '0'\n");
    r = cli.run("bench", "interruptions", "--nodes", "8");
    assertThat(r.err()).isEqualTo("squall bench interruptions: --nodes needs at least 16 (the trace's largest jobs "
        + "take 16 nodes), not '8'\n");
    r = cli.run("bench", "interruptions", "--seed", "0.5");
    assertThat(r.err()).isEqualTo("squall bench interruptions: --seed needs a whole number, not '0.5'\n");
    r = cli.run("bench", "interruptions", "--pending", "5");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench interruptions: bad option '--pending'; use --jobs --nodes --seed each "
        + "with a whole number, --interruptions-per-hour with a decimal number\n");
    r = cli.run("bench", "interruptions", "--interruptions-per-hour");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("squall bench interruptions: bad option '--interruptions-per-hour'");
    r = cli.run("bench", "nope");
    assertThat(r.err()).contains("available: scheduler, api, elastic, interruptions");
  }

  @Test
  void theEightAvailabilityTracesAreReadWithTheirTicks() {
    assertThat(InterruptionBench.traces()).hasSize(8).allSatisfy(t -> {
      assertThat(t.gap()).isEqualTo(Duration.ofSeconds(600));
      assertThat(t.available()).hasSize(3895).allSatisfy(a -> assertThat(a).isBetween(0, 1));
    });
    assertThat(InterruptionBench.traces()).extracting(TraceReclaims.Trace::name).contains("us-west-2b_v100_8");
  }
}
