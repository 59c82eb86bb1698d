package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.squall.cli.fake.FakeSquall;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.Node;
import io.squall.simulate.ElasticSimulation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {
  private final Cli cli = new Cli(FakeSquall.deadUrl());

  @Test
  void valuesMustFitWhatTheBenchmarksRead() {
    Cli.Result r = cli.run("bench", "scheduler", "--nodes", "3000000000");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench scheduler: --nodes needs a positive whole number, not '3000000000'\n");
    r = cli.run("bench", "api", "--clients", "0");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench api: --clients needs a positive whole number, not '0'\n");
    r = cli.run("bench", "scheduler", "--seed", "1.5");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench scheduler: --seed needs a whole number, not '1.5'\n");
  }

  @Test
  void anyWholeSeedRuns() {
    Cli.Result r = cli.run("bench", "scheduler", "--nodes", "64", "--pending", "200", "--cycles", "1", "--seed",
        "-9000000000");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("\"nodes\":64", "\"pending\":200", "\"cycles\":1");
  }

  @Test
  void smallJobsBenchReplaysItsStretchOfTheTraceAndPrintsTheWaits() {
    Cli.Result r = cli.run("bench", "small-jobs");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("695 single-GPU, 105 gangs: 66 of 2 nodes, 38 of 4", "\"jobs\":800,\"completed\":800",
        "\"wait_1_gpu_mean_s\":", "\"makespan_s\":");
  }

  @Test
  void smallJobsDefaultLimitsAreTheRuntimeAndFiveMinutesAsBefore() {
    List<ElasticSimulation.JobSpec> work = SmallJobsBench.workload();
    assertThat(work).hasSize(800);
    for (ElasticSimulation.JobSpec j : work) {
      // The simulator's rule for a job without a limit, which the bench used before it set limits itself.
      assertThat(j.timeLimit()).isEqualTo(Duration.ofMinutes((j.runtime().toSeconds() + 59) / 60 + 5));
    }
    assertThat(SmallJobsBench.workload(SmallJobsBench.Scaling.of(Map.of()))).isEqualTo(work);
  }

  @Test
  void smallJobsWritesTheTraceItReplays(@TempDir Path dir) throws IOException {
    Cli.Result r = cli.cwd(dir).run("bench", "small-jobs", "--jobs", "40", "--first", "2300", "--time-squeeze",
        "900", "--arrival-squeeze", "4", "--write-trace", "trace.csv");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("trace: 40 jobs from the 2301-th by submission, durations squeezed 900 times "
        + "(a minute is 0.067 s), gaps 4 times more, time limits the runtime and 20 s in whole minutes\n")
        .contains("replayed 40 jobs", "\"jobs\":40,\"completed\":40");
    List<String> lines = Files.readAllLines(dir.resolve("trace.csv"));
    assertThat(lines.get(0)).isEqualTo("submit_s,gpus_per_node,nodes,runtime_s,time_limit_s");
    List<ElasticSimulation.JobSpec> replayed =
        SmallJobsBench.workload(new SmallJobsBench.Scaling(40, 2300, 900, 4));
    assertThat(lines).hasSize(41);
    for (int i = 0; i < 40; i++) {
      String[] f = lines.get(i + 1).split(",");
      ElasticSimulation.JobSpec j = replayed.get(i);
      assertThat(Duration.ofMillis(Math.round(Double.parseDouble(f[0]) * 1000))).isEqualTo(j.submitAt());
      assertThat(Integer.parseInt(f[1])).isEqualTo(j.gpusPerNode());
      assertThat(Integer.parseInt(f[2])).isEqualTo(j.nodes());
      assertThat(Duration.ofMillis(Math.round(Double.parseDouble(f[3]) * 1000))).isEqualTo(j.runtime());
      long limit = Long.parseLong(f[4]);
      assertThat(Duration.ofSeconds(limit)).isEqualTo(j.timeLimit());
      assertThat(limit % 60).as("whole minutes, as Slurm's --time").isZero();
      assertThat(limit).isGreaterThanOrEqualTo(j.runtime().toSeconds() + 20);
    }
    assertThat(lines.get(1)).startsWith("0,");
  }

  @Test
  void smallJobsWritesEachJobAsSimulatedInTheColumnsOfTheReplay(@TempDir Path dir) throws IOException {
    Cli.Result r = cli.cwd(dir).run("bench", "small-jobs", "--jobs", "60", "--write-jobs", "jobs.csv");
    assertThat(r.exit()).isZero();
    List<String> lines = Files.readAllLines(dir.resolve("jobs.csv"));
    // bench/small-jobs/replay.py's jobs.csv, so that the simulated and the real run compare job by job.
    assertThat(lines.get(0)).isEqualTo("index,job_id,gpus,nodes,state,submitted,started,ended,wait");
    assertThat(lines).hasSize(61);
    List<ElasticSimulation.JobSpec> work = SmallJobsBench.workload(new SmallJobsBench.Scaling(60, 2200, 60, 8));
    double singleWaits = 0;
    int singles = 0;
    for (int i = 0; i < 60; i++) {
      String[] f = lines.get(i + 1).split(",");
      ElasticSimulation.JobSpec j = work.get(i);
      assertThat(Integer.parseInt(f[0])).isEqualTo(i);
      assertThat(Integer.parseInt(f[2])).isEqualTo(j.nodes() * j.gpusPerNode());
      assertThat(Integer.parseInt(f[3])).isEqualTo(j.nodes());
      assertThat(f[4]).isEqualTo("COMPLETED");
      double submitted = Double.parseDouble(f[5]);
      double started = Double.parseDouble(f[6]);
      double ended = Double.parseDouble(f[7]);
      double wait = Double.parseDouble(f[8]);
      // Submitted at the first tick at or after its offset in the trace; it ran its runtime exactly.
      assertThat(submitted).isBetween(j.submitAt().toMillis() / 1000.0, j.submitAt().toMillis() / 1000.0 + 0.25);
      assertThat(ended - started).isCloseTo(j.runtime().toMillis() / 1000.0, offset(1e-6));
      assertThat(wait).isCloseTo(started - submitted, offset(1e-6));
      if (j.nodes() == 1) {
        singleWaits += wait;
        singles++;
      }
    }
    assertThat(r.out()).contains(String.format(Locale.ROOT, "\"wait_1_gpu_mean_s\":%s,",
        Math.round(singleWaits / singles * 10) / 10.0));
  }

  @Test
  void smallJobsWritesTheClusterItSimulatesAsTheControllersPartition(@TempDir Path dir) throws IOException {
    Cli.Result r = cli.cwd(dir).run("bench", "small-jobs", "--jobs", "10", "--write-cluster", "cluster.yml");
    assertThat(r.exit()).isZero();
    List<String> lines = Files.readAllLines(dir.resolve("cluster.yml"));
    assertThat(lines.get(0)).isEqualTo("gpu:");
    Map<String, String> conf = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      assertThat(line).startsWith("  ");
      String[] kv = line.strip().split(": ", 2);
      conf.put(kv[0], kv[1]);
    }
    assertThat(conf).containsEntry("default", "true");
    List<Node> simulated = SmallJobsBench.nodes();
    List<String> names = Hostlist.expand(conf.get("nodes"));
    assertThat(names).isEqualTo(simulated.stream().map(Node::name).toList());
    // The controller's ClusterLayout splits the hostlist in order into this many equal groups.
    int groups = Integer.parseInt(conf.get("placement-groups"));
    for (int i = 0; i < simulated.size(); i++) {
      Node n = simulated.get(i);
      assertThat(Integer.parseInt(conf.get("gpus"))).isEqualTo(n.gpus());
      assertThat(conf.get("gpu-type")).isEqualTo(n.gpuType());
      assertThat(Integer.parseInt(conf.get("cpus"))).isEqualTo(n.cpus());
      assertThat(Long.parseLong(conf.get("memory-mb"))).isEqualTo(n.memoryMb());
      assertThat(conf.get("features")).isEqualTo("[" + String.join(", ", n.features()) + "]");
      for (int k = 0; k < simulated.size(); k++) {
        boolean sameGroup = i * groups / simulated.size() == k * groups / simulated.size();
        assertThat(n.placementGroup().equals(simulated.get(k).placementGroup()))
            .as("%s and %s in one group", n.name(), simulated.get(k).name()).isEqualTo(sameGroup);
      }
    }
    assertThat(groups).isEqualTo(4);
  }

  @Test
  void smallJobsFifoOrdersTheQueueBySubmissionAlone() {
    Cli.Result r = cli.run("bench", "small-jobs", "--jobs", "40", "--priority", "fifo");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("trace: 40 jobs from the 2201-th")
        .contains("priority: fifo (every priority weight 0: the queue in submission order, as priority/basic)\n",
            "\"jobs\":40,\"completed\":40");
  }

  @Test
  void smallJobsSmallRelativeToTimeSaysSoAndReplaysEveryJob() {
    Cli.Result r = cli.run("bench", "small-jobs", "--jobs", "40", "--priority", "small-relative-to-time");
    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains("priority: multifactor with PriorityFlags=SMALL_RELATIVE_TO_TIME (job size over time limit)\n",
            "\"jobs\":40,\"completed\":40");
  }

  @Test
  void smallJobsRefusesAStretchPastTheTracesEndAndAnEmptyFileName() {
    Cli.Result r = cli.run("bench", "small-jobs", "--jobs", "900");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo(
        "squall bench small-jobs: the trace has 3034 jobs: --first 2200 --jobs 900 goes past its end\n");
    r = cli.run("bench", "small-jobs", "--write-trace", "");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench small-jobs: --write-trace needs a file name, not ''\n");
    r = cli.run("bench", "small-jobs", "--priority", "basic");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench small-jobs: --priority needs multifactor or fifo or small-relative-to-time, not 'basic'\n");
    r = cli.run("bench", "small-jobs", "--time-squeeze", "0");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench small-jobs: --time-squeeze needs a positive whole number, not '0'\n");
  }

  @Test
  void apiBenchUsesTheConfiguredServiceAndNeedsAToken() {
    Cli.Result r = cli.env("SQUALL_TOKEN", null).run("bench", "api", "--jobs", "1");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("squall bench api: no token configured: set SQUALL_TOKEN, or put 'token = ...' in "
        + "/nonexistent-home/.config/squall/config\n");
    r = cli.env("SQUALL_TOKEN", "t").run("bench", "api", "--jobs", "1", "--clients", "1");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("squall bench api: cannot reach the Squall service at http://127.0.0.1:");
  }

  @Test
  void apiBenchSubmitsRestBenchsJobAndReportsItsFigures() {
    try (FakeSquall fake = FakeSquall.start()) {
      fake.on("GET", "/v1/partitions", 200, "{\"partitions\":[]}");
      for (int id = 1; id <= 6; id++) {
        fake.then("POST", "/v1/jobs", 201, "{\"job_id\":" + id + ",\"warnings\":[]}");
      }
      long pid = ProcessHandle.current().pid();
      Cli.Result r = new Cli(fake).run("bench", "api", "--jobs", "6", "--clients", "2", "--server-pid",
          Long.toString(pid));

      assertThat(r.err()).isEmpty();
      assertThat(r.exit()).isZero();
      assertThat(r.out()).startsWith("{\"jobs\":6,\"clients\":2,\"ok\":6,\"errors\":0,\"error_samples\":[],"
          + "\"unique_ids\":6,\"submit_per_s\":").contains("\"p50_ms\":", "\"p99_ms\":", "\"client_cpu_ms_per_job\":")
          .doesNotContain("\"server_cpu_ms_per_job\":null");
      List<FakeSquall.Request> submissions = fake.requests().stream().filter(q -> q.method().equals("POST")).toList();
      assertThat(submissions).hasSize(6).allSatisfy(q -> {
        assertThat(q.body()).isEqualTo(ApiBench.BODY).contains("\"hold\": true");
        assertThat(q.header("Content-Type")).isEqualTo("application/json");
        assertThat(q.header("Authorization")).isEqualTo("Bearer " + Cli.TOKEN);
      });
    }
  }

  @Test
  void apiBenchCountsRefusedSubmissionsAndFails() {
    try (FakeSquall fake = FakeSquall.start()) {
      fake.on("GET", "/v1/partitions", 200, "{\"partitions\":[]}");
      fake.on("POST", "/v1/jobs", 400, "{\"error\":\"--partition=gpu: no such partition\"}");
      Cli.Result r = new Cli(fake).run("bench", "api", "--jobs", "3", "--clients", "1");

      assertThat(r.exit()).isEqualTo(1);
      assertThat(r.out()).startsWith("{\"jobs\":3,\"clients\":1,\"ok\":0,\"errors\":3,\"error_samples\":"
          + "[\"HTTP 400: {\\\"error\\\":\\\"--partition=gpu: no such partition\\\"}\"")
          .contains("\"server_cpu_ms_per_job\":null");
    }
  }
}
