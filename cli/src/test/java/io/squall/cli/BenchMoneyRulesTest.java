package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.cli.fake.FakeSquall;
import org.junit.jupiter.api.Test;

/** {@code squall bench deadline} and {@code squall bench budget}, run small. */
class BenchMoneyRulesTest {
  private final Cli cli = new Cli(FakeSquall.deadUrl());

  private static JsonNode lastLine(String out) throws Exception {
    String[] lines = out.strip().split("\n");
    return new ObjectMapper().readTree(lines[lines.length - 1]);
  }

  @Test
  void deadlineBenchMeetsEveryDeadlineForLessThanOnDemand() throws Exception {
    Cli.Result r = cli.run("bench", "deadline", "--jobs", "20", "--seed", "1");
    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    JsonNode line = lastLine(r.out());
    assertThat(line.fieldNames()).toIterable().containsExactly("jobs", "deadlines", "deadlines_missed",
        "jobs_completed", "dollars_billed", "dollars_all_on_demand", "ratio", "deadlines_missed_without_rule",
        "dollars_billed_without_rule", "ratio_without_rule");
    assertThat(line.get("jobs").asInt()).isEqualTo(20);
    assertThat(line.get("deadlines").asInt()).isEqualTo(20);
    assertThat(line.get("deadlines_missed").asInt()).isZero();
    assertThat(line.get("jobs_completed").asInt()).isEqualTo(20);
    double billed = line.get("dollars_billed").asDouble();
    double onDemand = line.get("dollars_all_on_demand").asDouble();
    assertThat(billed).isPositive().isLessThanOrEqualTo(onDemand);
    assertThat(line.get("ratio").asDouble()).isCloseTo(billed / onDemand, org.assertj.core.data.Offset.offset(0.01));
    assertThat(r.out()).startsWith("deadline bench: 20 Philly jobs (seed 1,");
    assertThat(lastLine(cli.run("bench", "deadline", "--jobs", "20", "--seed", "1").out())).isEqualTo(line);
  }

  @Test
  void budgetBenchStartsNoJobPastTheHardLimit() throws Exception {
    Cli.Result r = cli.run("bench", "budget", "--seed", "1");
    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    JsonNode line = lastLine(r.out());
    assertThat(line.fieldNames()).toIterable().containsExactly("jobs", "speech", "vision", "started_past_hard_limit");
    assertThat(line.get("started_past_hard_limit").asInt()).isZero();
    JsonNode vision = line.get("vision");
    assertThat(vision.get("spent_usd").asDouble()).isGreaterThanOrEqualTo(vision.get("soft_usd").asDouble())
        .isLessThan(vision.get("hard_usd").asDouble());
    assertThat(vision.get("soft_reached_at_s").isNumber()).isTrue();
    assertThat(vision.get("jobs_held_at_hard_limit").asInt()).isPositive();
    assertThat(vision.get("on_demand_nodes_launched_past_soft").asInt()).isZero();
    assertThat(line.get("speech").get("soft_reached_at_s").isNull()).isTrue();
    assertThat(vision.get("jobs_started").asInt() + line.get("speech").get("jobs_started").asInt()
        + vision.get("jobs_held_at_hard_limit").asInt() + line.get("speech").get("jobs_held_at_hard_limit").asInt())
        .isEqualTo(line.get("jobs").asInt());
    assertThat(r.out()).contains("hour  0 vision spent $", "past-soft");
  }
}
