package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.api.fleet.NodeFleet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The real service with the local provider: four agent processes (8 fake GPUs each, two
 * placement groups) running real batch scripts with bash, srun and scontrol.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.MethodName.class)
class EndToEndTest {
  private static final Duration LONG = Duration.ofSeconds(90);
  private Path dir;
  private Controllers.Running server;
  private Http http;
  private long timeLimited;

  @BeforeAll
  void start() throws IOException {
    dir = Files.createTempDirectory("squall-e2e");
    server = Controllers.start(Controllers.settings(dir.resolve("data"), null, "local"));
    http = new Http(server.url());
    Poll.until("4 nodes to register", LONG, () -> {
      JsonNode nodes = http.get("admin-token", "/v1/nodes").json().get("nodes");
      return nodes.findValuesAsText("state").stream().filter("IDLE"::equals).count() == 4;
    });
    // A time limit is whole minutes: start this one first and look at it last.
    timeLimited = submit("#!/bin/bash\n#SBATCH --time=1\n#SBATCH --gpus-per-node=1\n"
        + "trap 'echo got TERM; exit 143' TERM\nwhile true; do sleep 1; done\n", List.of());
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aTwoNodeJobRunsSrunOnEveryNodeWithTheSlurmEnvironment() throws IOException {
    long id = submit("""
        #!/bin/bash
        #SBATCH --job-name=ranks
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=2
        #SBATCH --gpus-per-node=4
        #SBATCH --output=ranks-%j.out
        echo "batch on $SLURMD_NODENAME nodes=$SLURM_JOB_NODELIST n=$SLURM_NNODES tasks=$SLURM_NTASKS gpus=$CUDA_VISIBLE_DEVICES"
        echo "hosts $(scontrol show hostnames $SLURM_JOB_NODELIST | tr '\\n' ' ')"
        srun --label bash -c 'echo "rank=$SLURM_PROCID local=$SLURM_LOCALID node=$SLURM_NODEID host=$SLURMD_NODENAME gpus=$CUDA_VISIBLE_DEVICES job=$SLURM_JOB_ID"'
        """, List.of());
    JsonNode job = awaitEnd(id);
    assertThat(job.get("state").asText()).isEqualTo("COMPLETED");
    String nodes = job.get("nodes").asText();
    assertThat(nodes).matches("node-\\[\\d-\\d\\]");
    String out = Files.readString(dir.resolve("ranks-" + id + ".out"));
    assertThat(out).contains("nodes=" + nodes + " n=2 tasks=4 gpus=0,1,2,3");
    List<String> hosts = hostnames(nodes);
    assertThat(out).contains("hosts " + hosts.get(0) + " " + hosts.get(1) + " ");
    for (int rank = 0; rank < 4; rank++) {
      int node = rank / 2;
      assertThat(out).contains(rank + ": rank=" + rank + " local=" + rank % 2 + " node=" + node + " host="
          + hosts.get(node) + " gpus=0,1,2,3 job=" + id);
    }
    // The same output is gathered by the controller.
    String gathered = Poll.until("output to be gathered", LONG, () -> {
      String body = http.get("alice-token", "/v1/jobs/" + id + "/output").body();
      return body.contains("3: rank=3") ? body : null;
    });
    assertThat(gathered).isEqualTo(out);
    JsonNode sacct = http.get("alice-token", "/v1/accounting?job=" + id).json().get("jobs").get(0);
    assertThat(sacct.get("num_gpus").asInt()).isEqualTo(8);
    assertThat(sacct.get("exit_code").asInt()).isZero();
    // What sacct's QOS, Timelimit, ReqTRES, AllocCPUS, NTasks, WorkDir and Cluster show.
    assertThat(sacct.get("qos").asText()).isEqualTo("normal");
    assertThat(sacct.get("time_limit_minutes").isNull()).as("no --time, no DefaultTime or MaxTime").isTrue();
    assertThat(sacct.get("req_nodes").asInt()).isEqualTo(2);
    assertThat(sacct.get("req_gpus").asInt()).isEqualTo(8);
    assertThat(sacct.get("req_cpus").asInt()).isEqualTo(4);
    assertThat(sacct.get("num_cpus").asInt()).isEqualTo(4);
    assertThat(sacct.get("num_tasks").asInt()).isEqualTo(4);
    assertThat(sacct.get("cluster").asText()).isEqualTo("squall");
    assertThat(sacct.get("work_dir").asText()).isNotEmpty();
  }

  @Test
  void followingOutputStreamsUntilTheJobEnds() {
    long id = submit("#!/bin/bash\n#SBATCH --output=follow-%j.out\necho first\nsleep 2\necho second\n", List.of());
    // Asked before the job has written anything: the answer grows and closes when the job ends.
    Http.Answer followed = http.get("alice-token", "/v1/jobs/" + id + "/output?follow=true");
    assertThat(followed.status()).isEqualTo(200);
    assertThat(followed.body()).isEqualTo("first\nsecond\n");
    assertThat(job(id).get("state").asText()).isEqualTo("COMPLETED");
  }

  @Test
  void anArrayRespectsItsThrottle() {
    long id = submit("#!/bin/bash\n#SBATCH --array=1-5%2\n#SBATCH --gpus-per-node=1\n#SBATCH --output=/dev/null\n"
        + "sleep 2\n", List.of());
    int most = 0;
    long deadline = System.nanoTime() + LONG.toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode jobs = http.get("alice-token", "/v1/jobs?job=" + id).json().get("jobs");
      long running = jobs.findValuesAsText("state").stream().filter("RUNNING"::equals).count();
      most = Math.max(most, (int) running);
      if (jobs.size() == 5 && jobs.findValuesAsText("state").stream().allMatch("COMPLETED"::equals)) {
        break;
      }
      sleep(100);
    }
    assertThat(http.get("alice-token", "/v1/jobs?job=" + id).json().get("jobs").findValuesAsText("state"))
        .hasSize(5).containsOnly("COMPLETED");
    assertThat(most).isEqualTo(2);
  }

  /**
   * Each task runs with a job id of its own and its array's id, as in Slurm: the first to leave the
   * array (released alone here) has the array's id, the others new ones. Either id names the task.
   */
  @Test
  void arrayTasksRunWithTheirOwnJobIds() throws IOException {
    long id = submit("#!/bin/bash\n#SBATCH --array=1-3\n#SBATCH --hold\n#SBATCH --gpus-per-node=1\n"
        + "#SBATCH --output=ids-%A_%a.out\n"
        + "echo \"$SLURM_JOB_ID $SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT\"\n", List.of());
    assertThat(http.post("alice-token", "/v1/jobs/" + id + "_3/release", null).status()).isEqualTo(200);
    assertThat(awaitEnd(id + "_3").get("state").asText()).isEqualTo("COMPLETED");
    assertThat(http.post("alice-token", "/v1/jobs/" + id + "/release", null).status()).isEqualTo(200);
    Map<Integer, Long> own = new java.util.TreeMap<>();
    for (int task = 1; task <= 3; task++) {
      assertThat(awaitEnd(id + "_" + task).get("state").asText()).isEqualTo("COMPLETED");
      String[] env = Files.readString(dir.resolve("ids-" + id + "_" + task + ".out")).strip().split(" ");
      assertThat(env).as("SLURM_JOB_ID, SLURM_ARRAY_JOB_ID, _TASK_ID, _TASK_COUNT of task " + task)
          .containsExactly(env[0], Long.toString(id), Integer.toString(task), "3");
      own.put(task, Long.parseLong(env[0]));
    }
    assertThat(own.get(3)).isEqualTo(id);
    assertThat(own.get(1)).isGreaterThan(id).isNotEqualTo(own.get(2));
    assertThat(own.get(2)).isGreaterThan(id);
    // squeue -j, sacct -j and scancel take the task's own id as they take 42_1.
    JsonNode byOwnId = job(own.get(1));
    assertThat(byOwnId.get("job_id").asText()).isEqualTo(id + "_1");
    assertThat(byOwnId.get("job_id_raw").asLong()).isEqualTo(own.get(1));
    JsonNode sacct = http.get("alice-token", "/v1/accounting?job=" + own.get(2)).json().get("jobs");
    assertThat(sacct.findValuesAsText("job_id")).containsExactly(id + "_2");
    assertThat(http.get("alice-token", "/v1/accounting?job=" + id).json().get("jobs").findValuesAsText("job_id"))
        .containsExactlyInAnyOrder(id + "_1", id + "_2", id + "_3");
  }

  @Test
  void afterokWaitsForSuccessAndAfternotokRunsOnlyOnFailure() {
    long fails = submit("#!/bin/bash\n#SBATCH --output=/dev/null\nsleep 1; exit 3\n", List.of());
    long afterok = submit("#!/bin/bash\n#SBATCH --output=/dev/null\necho never\n", List.of("--dependency=afterok:" + fails));
    long afternotok = submit("#!/bin/bash\n#SBATCH --output=/dev/null\necho cleanup\n",
        List.of("--dependency=afternotok:" + fails));
    long ok = submit("#!/bin/bash\n#SBATCH --output=/dev/null\nsleep 1\n", List.of());
    long afterSuccess = submit("#!/bin/bash\n#SBATCH --output=/dev/null\necho next\n", List.of("--dependency=afterok:" + ok));
    assertThat(awaitEnd(fails).get("exit_code").asInt()).isEqualTo(3);
    assertThat(awaitEnd(fails).get("state").asText()).isEqualTo("FAILED");
    assertThat(awaitEnd(afternotok).get("state").asText()).isEqualTo("COMPLETED");
    assertThat(awaitEnd(afterSuccess).get("state").asText()).isEqualTo("COMPLETED");
    JsonNode never = Poll.until("afterok to be unsatisfiable", LONG, () -> {
      JsonNode j = job(afterok);
      return "DependencyNeverSatisfied".equals(j.get("reason").asText()) ? j : null;
    });
    assertThat(never.get("state").asText()).isEqualTo("PENDING");
  }

  @Test
  void cancelStopsEveryRank() throws IOException {
    Path pids = Files.createDirectories(dir.resolve("pids"));
    long id = submit("#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=1\n#SBATCH --output=/dev/null\n"
        + "srun bash -c 'echo $$ > " + pids + "/rank-$SLURM_PROCID; exec sleep 300'\n", List.of());
    Poll.until("both ranks to start", LONG, () -> Files.exists(pids.resolve("rank-0")) && Files.exists(pids.resolve("rank-1")));
    List<Long> ranks = new ArrayList<>();
    for (String f : List.of("rank-0", "rank-1")) {
      ranks.add(Long.parseLong(Poll.until("a pid in " + f, LONG, () -> read(pids.resolve(f)).isBlank() ? null : read(pids.resolve(f))).trim()));
    }
    assertThat(http.delete("alice-token", "/v1/jobs/" + id).status()).isEqualTo(200);
    assertThat(awaitEnd(id).get("state").asText()).isEqualTo("CANCELLED");
    for (long pid : ranks) {
      Poll.until("rank " + pid + " to die", LONG, () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    }
  }

  @Test
  void aJobOnANodeWhoseAgentDiesIsRequeuedAndRunsAgain() {
    long id = submit("#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\n#SBATCH --output=/dev/null\n"
        + "if [ \"$SLURM_RESTART_COUNT\" = 0 ]; then sleep 300; fi\necho second run\n", List.of());
    JsonNode running = Poll.until("the job to run", LONG, () -> {
      JsonNode j = job(id);
      return "RUNNING".equals(j.get("state").asText()) ? j : null;
    });
    String node = running.get("nodes").asText();
    server.bean(NodeFleet.class).stopNode(node);
    JsonNode done = awaitEnd(id);
    assertThat(done.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(done.get("restart_count").asInt()).isEqualTo(1);
    assertThat(done.get("nodes").asText()).isNotEqualTo(node);
    assertThat(job(id).get("events").findValuesAsText("state")).containsSubsequence("RUNNING", "REQUEUED", "PENDING",
        "RUNNING", "COMPLETED");
    Poll.until(node + " to be DOWN", LONG, () -> http.get("admin-token", "/v1/nodes").json().get("nodes")
        .findParents("name").stream().anyMatch(n -> n.get("name").asText().equals(node)
            && n.get("state").asText().equals("DOWN")));
  }

  @Test
  void zzTheTimeLimitEndsAJobInTimeout() {
    JsonNode job = awaitEnd(timeLimited);
    assertThat(job.get("state").asText()).isEqualTo("TIMEOUT");
    assertThat(job.get("elapsed_seconds").asLong()).isBetween(60L, 90L);
  }

  private long submit(String script, List<String> argv) {
    return http.submit(Map.of("script", script, "argv", argv, "submit_dir", dir.toString(),
        "environment", Map.of("PATH", System.getenv("PATH"))));
  }

  /** The job (or {@code 42_3} array task, or task by its own job id) as alice sees it. */
  private JsonNode job(Object id) {
    return http.job(id);
  }

  private JsonNode awaitEnd(Object id) {
    return Poll.until("job " + id + " to end", Duration.ofSeconds(150), () -> {
      JsonNode j = job(id);
      String state = j.get("state").asText();
      return List.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL").contains(state) ? j : null;
    });
  }

  private static List<String> hostnames(String list) {
    return io.squall.core.hostlist.Hostlist.expand(list);
  }

  private static String read(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
