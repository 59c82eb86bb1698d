package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two agents in this JVM and real srun processes, started through the agents' wrappers. */
class SrunTest {
  @TempDir static Path base;
  private static FakeController controller;
  private static Agent node1;
  private static Agent node2;

  @BeforeAll
  static void start() throws Exception {
    controller = FakeController.start();
    node1 = TestAgents.start("node-1", controller.url(), base.resolve("node-1"));
    node2 = TestAgents.start("node-2", controller.url(), base.resolve("node-2"));
  }

  @AfterAll
  static void stop() {
    node1.close();
    node2.close();
    controller.close();
  }

  /** Launches a two-node job as the controller would (other nodes first), runs it to its end. */
  private static String run(String job, String script) throws Exception {
    Path dir = Files.createDirectories(base.resolve("job-" + job));
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", "/usr/bin:/bin");
    env.put("SLURM_JOB_ID", job);
    env.put("SQUALL_JOB_KEY", job);
    env.put("SLURM_JOB_NODELIST", "node-[1-2]");
    env.put("SLURM_NNODES", "2");
    env.put("SLURM_NTASKS", "2");
    Map<String, String> nodes = new LinkedHashMap<>();
    nodes.put("node-1", node1.address().toString());
    nodes.put("node-2", node2.address().toString());
    Map<String, Object> launch = AgentCalls.batch(job, script, dir, env);
    launch.put("nodes", nodes);
    Map<String, Object> other = new LinkedHashMap<>(launch);
    other.put("batch", false);
    other.put("script", "");
    other.put("gpus", java.util.List.of(1));
    AgentCalls.launch(node2.address(), other);
    AgentCalls.launch(node1.address(), launch);
    JsonNode exit = controller.awaitExit(job, Eventually.LONG);
    String out = Files.readString(dir.resolve("out"));
    assertThat(exit.path("exit_code").asInt()).as(out).isZero();
    return out;
  }

  @Test
  void labelledTasksKnowTheirPlaceInTheStep() throws Exception {
    String out = run("80", """
        srun --label --ntasks-per-node=2 bash -c 'echo "P=$SLURM_PROCID N=$SLURM_NODEID L=$SLURM_LOCALID \
        H=$SLURMD_NODENAME T=$SLURM_STEP_NUM_TASKS NL=$SLURM_STEP_NODELIST S=$SLURM_STEP_ID G=$CUDA_VISIBLE_DEVICES \
        GN=$SLURM_GPUS_ON_NODE"'
        echo "rc=$?"
        srun -n 3 bash -c 'echo "T$SLURM_PROCID@$SLURMD_NODENAME step $SLURM_STEP_ID of $SLURM_NTASKS"'
        srun hostname > /dev/null
        echo "default rc=$?"
        """);

    assertThat(out).contains(
        "0: P=0 N=0 L=0 H=node-1 T=4 NL=node-[1-2] S=0 G=0,1 GN=2\n",
        "1: P=1 N=0 L=1 H=node-1 T=4 NL=node-[1-2] S=0 G=0,1 GN=2\n",
        "2: P=2 N=1 L=0 H=node-2 T=4 NL=node-[1-2] S=0 G=1 GN=1\n",
        "3: P=3 N=1 L=1 H=node-2 T=4 NL=node-[1-2] S=0 G=1 GN=1\n",
        "rc=0\n",
        "T0@node-1 step 1 of 3\n", "T1@node-1 step 1 of 3\n", "T2@node-2 step 1 of 3\n",
        "default rc=0\n");
  }

  @Test
  void exitCodesAndErrorsAreSlurms() throws Exception {
    String out = run("81", """
        srun -N2 bash -c 'if [ "$SLURM_PROCID" = 1 ]; then echo bad >&2; exit 5; fi'
        echo "rc=$?"
        srun -N1 bash -c 'kill -TERM $$'
        echo "rc=$?"
        srun -N2 bash -c 'if [ "$SLURM_PROCID" = 0 ]; then exit 3; fi; sleep 1; exit 9'
        echo "rc=$?"
        srun -N2 bash -c 'if [ "$SLURM_PROCID" = 0 ]; then exit 3; fi; sleep 1; kill -TERM $$'
        echo "rc=$?"
        srun -N3 true
        echo "rc=$?"
        srun -n1 -N2 true
        echo "rc=$?"
        srun no-such-program
        echo "rc=$?"
        scontrol show hostnames
        scontrol show hostnames 'gpu[01-02],x'
        scontrol show jobs
        echo "rc=$?"
        """);

    assertThat(out).contains(
        "bad\nsrun: error: node-2: task 1: Exited with exit code 5\nrc=5\n",
        "srun: error: node-1: task 0: Terminated\nrc=143\n",
        // srun's status is its tasks' highest, not the first failure's.
        "srun: error: node-1: task 0: Exited with exit code 3\nsrun: error: node-2: task 1: Exited with exit code 9\n"
            + "rc=9\n",
        "srun: error: node-1: task 0: Exited with exit code 3\nsrun: error: node-2: task 1: Terminated\nrc=143\n",
        "srun: error: Unable to create step for job 81: 3 nodes requested but the job has only 2 (node-[1-2])\nrc=1\n",
        "srun: error: Unable to create step for job 81: 1 tasks cannot cover 2 nodes",
        "slurmstepd: error: execve(): no-such-program: No such file or directory\n",
        "node-1\nnode-2\ngpu01\ngpu02\nx\n",
        "scontrol: error: only 'scontrol show hostnames' is available inside a job here; use bin/scontrol\nrc=1\n");
    assertThat(out).containsSubsequence("no-such-program", "rc=2\n");
  }

  @Test
  void aSignalToSrunIsForwardedToItsTasks() throws Exception {
    String out = run("82", """
        srun -N2 bash -c 'trap "echo \\$SLURM_PROCID >> termed; exit 7" TERM; echo ready; \
        while true; do sleep 0.1; done' > srun.out 2>&1 &
        SRUN=$!
        for i in $(seq 1 600); do [ "$(grep -c ready srun.out)" = 2 ] && break; sleep 0.1; done
        kill -TERM $SRUN
        wait $SRUN
        echo "srun rc=$?"
        for i in $(seq 1 600); do [ "$(wc -l < termed)" = 2 ] && break; sleep 0.1; done
        sort termed
        """);

    assertThat(out).contains("srun rc=143\n0\n1\n");
  }
}
