package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.jobs.JobLifecycle;
import io.squall.api.state.StateWriter;
import io.squall.core.model.JobKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job does not start again while its last run may still go on (CompletingRuns, Slurm's
 * COMPLETING). A run whose node's agent answered its clean-up with processes not yet gone, and
 * lists the job in its reports until they are, holds the job back until a report without it. A
 * run its controller no longer has on a node (its end committed, its clean-up never delivered: the
 * controller died in between) is a stray: the node's next report is answered with it, for the
 * agent to kill. And a controller that has just started starts no job that ran before until every
 * node has reported holding no stray, so a job requeued just before a crash cannot run twice. The
 * node's agent is a fake; the test sends its reports and says what it holds.
 */
class CompletingRunsTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  @TempDir
  Path dir;
  @AutoClose
  private final FakeAgent agent = new FakeAgent();

  @Test
  void aReportedRunTheControllerDoesNotHaveThereIsAnsweredAsAStray() {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      agent.register(h, "node-1");
      String job = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n"));
      ManualTime.of(c).tick();
      Poll.until("the launch", LONG, () -> agent.called("POST /jobs"));

      assertThat(heartbeat(h, List.of(job)).json().has("strays")).isFalse();
      assertThat(heartbeat(h, List.of(job, "4242")).json().get("strays").toString()).isEqualTo("[\"4242\"]");

      requeue(c, job);
      assertThat(heartbeat(h, List.of(job)).json().get("strays").toString()).isEqualTo("[\"" + job + "\"]");
      assertThat(agent.register(h, "node-1", List.of(job)).json().get("strays").toString()).isEqualTo("[\"" + job + "\"]");
    }
  }

  @Test
  void afterARestartAJobThatRanBeforeWaitsUntilTheNodesReportNoStray() {
    String job;
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      agent.register(h, "node-1");
      job = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n"));
      ManualTime.of(c).tick();
      Poll.until("the launch", LONG, () -> agent.called("POST /jobs"));
      // Requeued, and the controller stops before its node hears of it (the fake keeps the run).
      requeue(c, job);
    }
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      time.tick();
      assertThat(h.jobState(job)).isEqualTo("PENDING");

      // The node still runs the old run: told to kill it, and the job still waits.
      assertThat(heartbeat(h, List.of(job)).json().get("strays").toString()).isEqualTo("[\"" + job + "\"]");
      time.tick();
      assertThat(h.jobState(job)).isEqualTo("PENDING");

      assertThat(heartbeat(h, List.of()).json().has("strays")).isFalse();
      time.tick();
      assertThat(h.jobState(job)).isEqualTo("RUNNING");
      assertThat(h.job(job).get("restart_count").asInt()).isEqualTo(1);
    }
  }

  @Test
  void aRequeuedJobWaitsUntilItsNodeNoLongerHoldsItsLastRun() {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long id = requeuedWhileItsLastRunLingers(h, time);
      String job = Long.toString(id);
      for (int i = 0; i < 3; i++) {
        // Still dying there: the controller no longer runs it on the node (a stray), and holds it back.
        assertThat(heartbeat(h, List.of(job)).body()).contains(job);
        time.tick();
        assertThat(h.jobState(id)).isEqualTo("PENDING");
      }

      // Gone: the next cycle after a heartbeat without it starts the job again.
      Poll.until("the job running again", LONG, () -> {
        heartbeat(h, List.of());
        time.tick();
        return h.jobState(id).equals("RUNNING");
      });
      assertThat(h.job(job).get("restart_count").asInt()).isEqualTo(1);
    }
  }

  @Test
  void aJobHeldBackLeavesTheGpusItWouldHaveTakenToTheNextJob() {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long first = requeuedWhileItsLastRunLingers(h, time);

      // The requeued job is first in the queue but held back: the cycle leaves it out, as Slurm's
      // scheduler skips a completing job, so the next job takes the node.
      long second = h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n");
      heartbeat(h, List.of(Long.toString(first)));
      time.tick();
      assertThat(h.jobState(first)).isEqualTo("PENDING");
      assertThat(h.jobState(second)).isEqualTo("RUNNING");
    }
  }

  /**
   * A whole-node job run on node-1 and ended there, its processes still dying when the node was
   * told to drop them (the fake agent answers the delete as not over), then requeued by its user.
   */
  private long requeuedWhileItsLastRunLingers(Http h, ManualTime time) {
    agent.register(h, "node-1");
    long id = h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n");
    String job = Long.toString(id);
    time.tick(); // the cycle starts the job
    time.awaitLaunchBack(job);
    agent.deletedRunsLinger();
    agent.exit(h, "node-1", job, 0);
    Poll.until("the node told to drop what is left of it", LONG, () -> agent.called("DELETE /jobs/" + job));
    assertThat(h.post("alice-token", "/v1/jobs/" + id + "/requeue", Map.of()).status()).isEqualTo(200);
    return id;
  }

  /** Requeues the job as a drain or a lost node would; the fake agent goes on holding its run. */
  private static void requeue(Controllers.Running c, String job) {
    c.bean(StateWriter.class).write(b -> {
      c.bean(JobLifecycle.class).requeue(b, b.job(JobKey.parse(job)), "requeued by the test");
      return null;
    }).join();
  }

  private Http.Answer heartbeat(Http h, List<String> held) {
    return agent.heartbeat(h, "node-1", held);
  }

  private Map<String, Object> settings() {
    return Controllers.manualSettings(dir.resolve("data"), null, "node-1", "10h");
  }
}
