package io.squall.api.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code squall simulate} end to end: a jsonl trace, two configurations side by side, JSON and the report. */
class WhatIfTest {
  @TempDir
  Path dir;

  private record Run(int exit, String out, String err) {}

  private static Run simulate(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = WhatIf.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Path config(String name, String spot) throws Exception {
    return Files.writeString(dir.resolve(name), """
        squall:
          provider: aws
          aws: {region: us-east-1}
          accounts:
            vision: {hard-limit-usd: 50000}
          partitions:
            gpu:
              nodes: p5-[1-8]
              elastic: true
              instance-types: [p5.48xlarge]
              spot: %s
        """.formatted(spot));
  }

  private Path trace() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      lines.add(String.format("{\"id\":\"%d\",\"submit\":\"2026-10-01T%02d:00:00Z\",\"account\":\"%s\",\"nodes\":%d,"
          + "\"gpus_per_node\":8,\"runtime_s\":%d}", i, i, i % 2 == 0 ? "vision" : "speech", 1 + i % 3, 1800 + 600 * i));
    }
    return Files.write(dir.resolve("jobs.jsonl"), lines);
  }

  @Test
  void twoConfigurationsOnTheSameTraceSideBySideWithJsonAndAReport() throws Exception {
    Path json = dir.resolve("out.json");
    Path report = dir.resolve("out.html");
    Run r = simulate("--trace", trace().toString(), "--trace-format", "jsonl", "--config",
        config("spot.yml", "spot-then-on-demand").toString(), "--compare", config("od.yml", "on-demand").toString(),
        "--seed", "3", "--json", json.toString(), "--report", report.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    String[] table = r.out().split("\n");
    assertThat(table[0]).contains("spot.yml", "od.yml");
    assertThat(r.out()).contains("cost_ratio", "wait_p95_s", "spent_usd vision", " of 50000");
    assertThat(r.err()).contains("spot.yml: 10 jobs simulated", "od.yml: 10 jobs simulated");
    JsonNode doc = new ObjectMapper().readTree(json.toFile());
    assertThat(doc.get("trace_jobs").asInt()).isEqualTo(10);
    assertThat(doc.get("configurations")).hasSize(2);
    JsonNode spot = doc.get("configurations").get(0);
    JsonNode od = doc.get("configurations").get(1);
    assertThat(spot.get("jobs_completed").asInt()).isEqualTo(10);
    assertThat(spot.get("finished").asBoolean()).isTrue();
    // A wait lasts until the job runs: nodes launched for it boot first (3 min).
    assertThat(spot.get("wait_p95_s").asLong()).isGreaterThanOrEqualTo(180);
    assertThat(od.get("dollars_billed").asLong()).isGreaterThan(spot.get("dollars_billed").asLong());
    assertThat(spot.get("accounts").get("vision").get("hard_usd").asDouble()).isEqualTo(50000.0);
    String html = Files.readString(report);
    assertThat(html).contains("spot.yml", "od.yml").doesNotContain("src=\"http");
    // The same seed, the same figures.
    Path again = dir.resolve("again.json");
    simulate("--trace", trace().toString(), "--trace-format", "jsonl", "--config", dir.resolve("spot.yml").toString(),
        "--compare", dir.resolve("od.yml").toString(), "--seed", "3", "--json", again.toString());
    assertThat(new ObjectMapper().readTree(again.toFile()).get("configurations")).isEqualTo(doc.get("configurations"));
  }

  /**
   * A configuration with a static partition beside the elastic one: every partition is replayed,
   * each job in the one it ran in (a partition the configuration lacks: the default one, counted);
   * the static partition's work costs nothing and counts against its own GPUs. --partition
   * replays one partition, static ones too.
   */
  @Test
  void everyPartitionIsReplayedEachJobInItsOwn() throws Exception {
    Path two = Files.writeString(dir.resolve("two.yml"), """
        squall:
          provider: aws
          aws: {region: us-east-1}
          partitions:
            gpu:
              nodes: p5-[1-8]
              elastic: true
              default: true
              instance-types: [p5.48xlarge]
            owned:
              nodes: dgx-[1-2]
        """);
    Path trace = Files.write(dir.resolve("parts.jsonl"), List.of(
        "{\"submit\":\"2026-10-01T00:00:00Z\",\"partition\":\"owned\",\"nodes\":2,\"gpus_per_node\":8,"
            + "\"runtime_s\":3600}",
        "{\"submit\":\"2026-10-01T00:00:00Z\",\"partition\":\"gpu\",\"nodes\":2,\"gpus_per_node\":8,"
            + "\"runtime_s\":3600}",
        "{\"submit\":\"2026-10-01T00:00:00Z\",\"partition\":\"elsewhere\",\"nodes\":1,\"gpus_per_node\":8,"
            + "\"runtime_s\":3600}"));
    Path json = dir.resolve("parts.json");
    Run r = simulate("--trace", trace.toString(), "--trace-format", "jsonl", "--config", two.toString(),
        "--json", json.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode f = new ObjectMapper().readTree(json.toFile()).get("configurations").get(0);
    assertThat(f.get("partitions").asText()).isEqualTo("gpu,owned");
    assertThat(f.get("jobs_completed").asInt()).isEqualTo(3);
    assertThat(f.get("jobs_to_default_partition").asInt()).isEqualTo(1);
    // The owned job ran at once on the static nodes: the lowest wait is 0, the highest a boot.
    assertThat(f.get("wait_p50_s").asLong()).isGreaterThanOrEqualTo(180);
    assertThat(f.get("wait_mean_s").asLong()).isLessThan(f.get("wait_p50_s").asLong());
    // 16 GPU-hours of work on the 16 static GPUs over the run (the elastic jobs' boot and run).
    double makespanH = f.get("makespan_h").asDouble();
    assertThat(f.get("static_gpu_utilisation").asDouble()).isCloseTo(1 / makespanH,
        org.assertj.core.data.Offset.offset(0.002));
    assertThat(f.get("gpu_utilisation").asDouble()).isBetween(0.5, 1.0);
    // Only the static partition: every job runs there, the elastic one's too; nothing is billed.
    Path owned = dir.resolve("owned.json");
    Run one = simulate("--trace", trace.toString(), "--trace-format", "jsonl", "--config", two.toString(),
        "--partition", "owned", "--json", owned.toString());
    assertThat(one.exit()).as(one.err()).isZero();
    JsonNode o = new ObjectMapper().readTree(owned.toFile()).get("configurations").get(0);
    assertThat(o.get("partitions").asText()).isEqualTo("owned");
    assertThat(o.get("jobs_completed").asInt()).isEqualTo(3);
    assertThat(o.get("dollars_billed").asLong()).isZero();
    Run unknown = simulate("--trace", trace.toString(), "--trace-format", "jsonl", "--config", two.toString(),
        "--partition", "cpu");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).contains("two.yml: no partition cpu (partitions: [gpu, owned])");
  }

  @Test
  void badInputIsRefusedSayingWhatAndWhere() throws Exception {
    Run noConfig = simulate("--trace", trace().toString(), "--trace-format", "jsonl");
    assertThat(noConfig.exit()).isEqualTo(2);
    assertThat(noConfig.err()).contains("--trace, --trace-format and --config are required", "usage: squall simulate");
    Run format = simulate("--trace", trace().toString(), "--trace-format", "csv", "--config", "x.yml");
    assertThat(format.exit()).isEqualTo(2);
    assertThat(format.err()).contains("unknown trace format \"csv\"");
    Path bad = Files.writeString(dir.resolve("bad.jsonl"), "{\"submit\":\"2026-10-01T00:00:00Z\",\"nodes\":1,"
        + "\"runtime_s\":60}\n{\"submit\":\"yesterday\",\"nodes\":1,\"runtime_s\":60}\n");
    Run row = simulate("--trace", bad.toString(), "--trace-format", "jsonl", "--config",
        config("spot.yml", "spot-then-on-demand").toString());
    assertThat(row.exit()).isEqualTo(2);
    assertThat(row.err()).contains("bad.jsonl line 2", "submit");
    Run missing = simulate("--trace", trace().toString(), "--trace-format", "jsonl", "--config",
        dir.resolve("nope.yml").toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("nope.yml: no such configuration file");
    Path refused = Files.writeString(dir.resolve("refused.yml"), Files.readString(config("ok.yml", "on-demand"))
        + "      max-on-demand-usd-per-gpu-hour: 5.0\n");
    Run controllerWouldRefuse = simulate("--trace", trace().toString(), "--trace-format", "jsonl", "--config",
        refused.toString());
    assertThat(controllerWouldRefuse.exit()).isEqualTo(2);
    assertThat(controllerWouldRefuse.err()).startsWith("squall simulate: ").contains("refused.yml: "
        + "squall.partitions.gpu.max-on-demand-usd-per-gpu-hour: 5.0 is below the list price");
  }
}
