package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.cli.fake.FakeSquall;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import io.squall.simulate.ElasticSimulation;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ElasticBenchTest {
  private final Cli cli = new Cli(FakeSquall.deadUrl());

  private static JsonNode lastLine(String out) throws Exception {
    String[] lines = out.strip().split("\n");
    return new ObjectMapper().readTree(lines[lines.length - 1]);
  }

  @Test
  void aSmallRunEndsWithItsFiguresAsOneJsonLine() throws Exception {
    Cli.Result r = cli.run("bench", "elastic", "--pending", "50", "--seed", "1");
    assertThat(r.exit()).isZero();
    JsonNode line = lastLine(r.out());
    assertThat(line.fieldNames()).toIterable().containsExactly("jobs", "launch_calls", "nodes_launched",
        "partial_gangs_billed", "orphans", "median_time_to_launch_call_ms", "idle_node_hours", "dollars_billed",
        "lower_bound_dollars", "cost_ratio", "gap_price_dollars", "gap_boot_dollars", "gap_rework_dollars",
        "gap_unfinished_dollars", "gap_overhead_dollars");
    assertThat(line.get("cost_ratio").asDouble()).isGreaterThan(1);
    BenchInterruptionsTest.assertGapAddsUp(line);
    assertThat(line.get("dollars_billed").asLong()).isGreaterThan(line.get("lower_bound_dollars").asLong());
    assertThat(line.get("jobs").asInt()).isEqualTo(50);
    assertThat(line.get("launch_calls").asLong()).isPositive();
    assertThat(line.get("nodes_launched").asLong()).isPositive();
    assertThat(line.get("partial_gangs_billed").asLong()).isZero();
    assertThat(line.get("orphans").asLong()).isZero();
    assertThat(line.get("median_time_to_launch_call_ms").asLong()).isBetween(1000L, 2000L);
    assertThat(line.get("idle_node_hours").asDouble()).isPositive();
    assertThat(r.out()).containsPattern("needed a launch \\d+ \\(\\d+ of them called within 2 s\\)");
    // The same seed, the same figures.
    assertThat(lastLine(cli.run("bench", "elastic", "--pending", "50", "--seed", "1").out())).isEqualTo(line);
  }

  @Test
  void badOptionsAreRefused() {
    Cli.Result r = cli.run("bench", "elastic", "--pending", "0");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench elastic: --pending needs a positive whole number, not '0'\n");
    r = cli.run("bench", "elastic", "--on-demand-after", "-1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo(
        "squall bench elastic: --on-demand-after needs a non-negative whole number, not '-1'\n");
    r = cli.run("bench", "elastic", "--nodes", "15");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench elastic: --nodes needs at least 16 (the trace's largest jobs take 16 "
        + "nodes), not '15'\n");
    r = cli.run("bench", "nope");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("available: scheduler, api, elastic");
  }

  @Test
  void theWorkloadFollowsTheTraceAndTheCatalogueIsUsEast1() {
    List<ElasticSimulation.JobSpec> work = ElasticBench.workload(ElasticBench.trace(), 2000, new SplittableRandom(3));
    assertThat(work).hasSize(2000).allSatisfy(j -> {
      assertThat(j.gpusPerNode()).isBetween(1, 8);
      assertThat(j.nodes()).isBetween(1, 16);
      assertThat(j.runtime()).isLessThanOrEqualTo(ElasticBench.MAX_RUNTIME).isPositive();
    });
    assertThat(work).anySatisfy(j -> assertThat(j.gpusPerNode()).isEqualTo(4));
    assertThat(work).anySatisfy(j -> assertThat(j.nodes()).isGreaterThan(1));
    assertThat(ElasticBench.trace()).hasSize(3034);
    List<Offering> offerings = ElasticBench.offerings();
    assertThat(offerings).hasSize(12).allSatisfy(o -> {
      assertThat(o.instanceType()).isEqualTo("p5.48xlarge");
      assertThat(o.zone()).startsWith("use1-az");
    });
    assertThat(offerings).filteredOn(o -> o.capacityType() == CapacityType.ON_DEMAND)
        .allSatisfy(o -> assertThat(o.pricePerHour()).isEqualTo(98.32));
  }
}
