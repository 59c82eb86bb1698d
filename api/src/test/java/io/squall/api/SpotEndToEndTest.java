package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.core.hostlist.Hostlist;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spot interruptions end to end on the local provider, with real agents running
 * {@code examples/spot-training.sh}: a notice on one node of a running 2-node gang drains it,
 * the job gets its checkpoint signal, checkpoints, is requeued whole and resumes elsewhere from
 * its checkpoint, ending as an uninterrupted run would. Also: a job without checkpoint support
 * (restarts from scratch, the lost work is recorded), {@code --no-requeue}, a repeated notice,
 * and the restart limit.
 *
 * <p>On a manual clock ({@link ManualTime}): the controller decides only when the test ticks, so
 * what it decides by time (a notice's deadline, a backoff, the batch window) is driven, not slept
 * for; the tests wait only for what the real agents and the jobs' processes do.
 */
class SpotEndToEndTest {
  private static final Duration LONG = Duration.ofSeconds(120);
  private static final Path EXAMPLE = Path.of("..", "examples", "spot-training.sh");
  private static final int STEPS = 30;

  @TempDir Path dir;

  private Map<String, Object> settings() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.partitions.gpu.nodes", "cloud-[1-4]");
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.partitions.gpu.batch-window", "200ms");
    s.put("squall.partitions.gpu.suspend-time", "10m");
    s.put("squall.partitions.gpu.interruption-margin", "2s");
    s.put("squall.reconcile-interval", "1s");
    s.put("squall.ticks", "manual");
    // The manual clock may run ahead of the agents' real heartbeats: node loss is not what is tested.
    s.put("squall.node-timeout", "30m");
    return s;
  }

  /** The example with a short run, its output in the test's directory. */
  private String training(String extraDirectives) throws Exception {
    return Files.readString(EXAMPLE)
        .replace("#SBATCH --output=spot-training-%j.out", "#SBATCH --output=" + dir.resolve("train-%j.out")
            + extraDirectives)
        .replace("STEPS=${STEPS:-60}", "STEPS=" + STEPS)
        .replace("CHECKPOINT_EVERY=${CHECKPOINT_EVERY:-10}", "CHECKPOINT_EVERY=5")
        .replace("STEP_SECONDS=${STEP_SECONDS:-0.5}", "STEP_SECONDS=0.4");
  }

  /** What the example prints last when nothing interrupts it. */
  private static String uninterruptedLastLine() {
    long state = 1;
    for (int step = 0; step < STEPS; step++) {
      state = (state * 31 + step) % 1000003;
    }
    return "done: step " + STEPS + " state " + state;
  }



  private static JsonNode awaitState(ManualTime time, Http h, long id, String state) {
    try {
      return time.until("job " + id + " " + state, LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("state").asText().equals(state) ? j : null;
      });
    } catch (AssertionError e) {
      // What it waited on, for a failure on a busy machine to say why (one did, in a CI run).
      throw new AssertionError(e.getMessage() + "\njob: " + h.job(id) + "\nnodes: " + h.get("admin-token", "/v1/nodes").body(), e);
    }
  }

  private static List<String> nodesOf(JsonNode job) {
    return Hostlist.expand(job.get("nodes").asText());
  }

  private static Http.Answer interrupt(Http h, String node, long noticeSeconds) {
    return h.post("admin-token", "/v1/nodes/" + node + "/interrupt", Map.of("notice_seconds", noticeSeconds));
  }

  private static List<JsonNode> interruptions(Http h, long job) {
    List<JsonNode> out = new ArrayList<>();
    h.get("admin-token", "/v1/interruptions?job=" + job).json().get("interruptions").forEach(out::add);
    return out;
  }


  /**
   * Also behaviour 3's survivors: in two placement groups of two nodes, the gang's replacement
   * cannot use its own group (one node is being taken away), so it goes whole to the other, and
   * the surviving node, which cannot join it, is given back at once, not after suspend-time.
   */
  @Test
  void anInterruptedGangCheckpointsIsRequeuedWholeAndResumesWhereItWas() throws Exception {
    Map<String, Object> s = settings();
    s.put("squall.partitions.gpu.placement-groups", 2);
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long id = h.submit(training(""));
      JsonNode running = awaitState(time, h, id, "RUNNING");
      List<String> firstNodes = nodesOf(running);
      assertThat(firstNodes).hasSize(2);
      // Mid-run: after its first periodic checkpoint.
      time.until("a first checkpoint", LONG, () ->
          h.get("alice-token", "/v1/jobs/" + id + "/checkpoints").json().get("checkpoints").size() > 0 ? true : null);
      String victim = firstNodes.get(1);
      Http.Answer a = interrupt(h, victim, 30);
      assertThat(a.status()).as(a.body()).isEqualTo(202);

      JsonNode done = awaitState(time, h, id, "COMPLETED");
      assertThat(done.get("restart_count").asInt()).isEqualTo(1);
      List<String> states = done.get("events").findValuesAsText("state");
      int preempted = states.indexOf("PREEMPTED");
      assertThat(preempted).isPositive();
      assertThat(states.get(preempted + 1)).isEqualTo("PENDING");
      assertThat(done.get("events").toString()).contains("SIGUSR1 sent", "checkpoint step");
      assertThat(nodesOf(done)).doesNotContain(victim);
      String survivor = firstNodes.get(0);
      assertThat(nodesOf(done)).doesNotContain(survivor);
      JsonNode left = h.node(survivor); // suspend-time is 10 min; seconds have passed
      assertThat(left.get("state").asText()).isEqualTo("CLOUD");
      assertThat(left.get("reason").asText()).isEqualTo("powered down: job " + id + " left it and now holds other nodes");

      List<String> out = Files.readAllLines(dir.resolve("train-" + id + ".out"));
      assertThat(out.get(0)).matches("restart 1: resuming from step [1-9][0-9]* \\(.*step-[0-9]+\\.ckpt\\)");
      assertThat(out.get(out.size() - 1)).isEqualTo(uninterruptedLastLine());

      List<JsonNode> hit = interruptions(h, id);
      assertThat(hit).hasSize(1);
      assertThat(hit.get(0).get("source").asText()).isEqualTo("OPERATOR");
      assertThat(hit.get(0).get("outcome").asText()).startsWith("checkpointed at step").endsWith("requeued");
      // The node being taken away is DRAINING until its machine goes, then back to CLOUD.
      assertThat(h.nodeState(victim)).isIn("DRAINING", "DOWN", "CLOUD");
      JsonNode catalog = h.get("alice-token", "/v1/jobs/" + id + "/checkpoints").json();
      assertThat(catalog.get("restore_from").asText()).contains("step-" + STEPS + ".ckpt");
      // Registered by the job itself (squall checkpoint register, through its node's agent).
      assertThat(catalog.get("checkpoints").findValuesAsText("node")).isNotEmpty().doesNotContainNull()
          .allSatisfy(n -> assertThat(n).startsWith("cloud-"));
    }
  }

  @Test
  void aPausedJobCheckpointsReleasesItsGangAndResumesWhenReleased() throws Exception {
    // This time checkpoints are registered by dropping them where the partition's pattern finds them.
    Map<String, Object> s = settings();
    s.put("squall.partitions.gpu.checkpoint-pattern", "step-*.ckpt");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      // Its first run waits after its first checkpoint (step 5) until it is paused: on a busy
      // machine it must not finish its steps before the pause reaches it (a race the test once lost).
      String script = training("").replace("squall checkpoint register", ": squall checkpoint register")
          .replace("sleep \"$STEP_SECONDS\" & wait $!", "if [ \"$SLURM_RESTART_COUNT\" = 0 ] && [ \"$step\" -ge 6 ]; "
              + "then sleep 600 & wait $!; else sleep \"$STEP_SECONDS\" & wait $!; fi");
      assertThat(script).contains("sleep 600");
      long id = h.submit(script);
      awaitState(time, h, id, "RUNNING");
      time.until("a first checkpoint", LONG, () ->
          h.get("alice-token", "/v1/jobs/" + id + "/checkpoints").json().get("checkpoints").size() > 0 ? true : null);
      Http.Answer a = h.post("alice-token", "/v1/jobs/" + id + "/pause", Map.of());
      assertThat(a.status()).as(a.body()).isEqualTo(200);
      JsonNode held = time.until("the job paused", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("state").asText().equals("PENDING") && j.get("held").asBoolean() ? j : null;
      });
      assertThat(held.get("events").toString()).contains("paused by alice after checkpoint step");
      assertThat(held.get("restart_count").asInt()).isEqualTo(1);
      // Its gang is free while it waits.
      time.until("the gang released", LONG, () -> h.get("admin-token", "/v1/nodes").json().get("nodes")
          .findValuesAsText("state").stream().noneMatch(st -> st.equals("ALLOCATED") || st.equals("MIXED")) ? true
          : null);
      assertThat(h.post("alice-token", "/v1/jobs/" + id + "/release", Map.of()).status()).isEqualTo(200);
      awaitState(time, h, id, "COMPLETED");
      List<String> out = Files.readAllLines(dir.resolve("train-" + id + ".out"));
      assertThat(out.get(0)).startsWith("restart 1: resuming from step ");
      assertThat(out.get(out.size() - 1)).isEqualTo(uninterruptedLastLine());
    }
  }

  /**
   * The loss is exact: the gang runs 20 s of controller time, gets a 3 s notice, ignores the
   * signal and is stopped at the deadline less the 2 s margin, 21 s after it started: 16 GPUs x
   * 21 s lost.
   */
  @Test
  void aJobWithoutCheckpointsRestartsFromScratchAndItsLossIsRecorded() throws Exception {
    Map<String, Object> s = settings();
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      // Ignores the signal, writes no checkpoint: all it did is lost.
      long id = h.submit("#!/bin/bash\n#SBATCH -N 2 --gres=gpu:8 --output=" + dir.resolve("plain.out")
          + "\ntrap '' USR1\necho \"run $SLURM_RESTART_COUNT from '${SQUALL_RESTORE_FROM}'\"\n"
          + "if [ \"$SLURM_RESTART_COUNT\" = 0 ]; then sleep 60; fi\n");
      JsonNode running = time.until("the gang running", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("state").asText().equals("RUNNING") ? j : null;
      });
      Instant started = Instant.parse(running.get("start_time").asText());
      time.clock().advance(Duration.between(time.clock().instant(), started.plusSeconds(20)));
      interrupt(h, nodesOf(running).get(0), 3);
      time.tick(); // the drain signals the job; it must stop 1 s from now (the 3 s notice less the margin)
      assertThat(h.jobState(id)).as(h.job(id).toString()).isEqualTo("RUNNING");
      time.tickAfter(Duration.ofSeconds(1)); // stopped without a checkpoint, requeued
      assertThat(h.job(id).get("restart_count").asInt()).isEqualTo(1);
      JsonNode hit = interruptions(h, id).get(0);
      assertThat(hit.get("outcome").asText()).isEqualTo("stopped without a new checkpoint; requeued");
      assertThat(hit.get("lost_gpu_hours").asDouble()).isCloseTo(16 * 21 / 3600.0, within(1e-6));

      JsonNode done = time.until("the job to complete", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("state").asText().equals("COMPLETED") ? j : null;
      });
      assertThat(done.get("restart_count").asInt()).isEqualTo(1);
      assertThat(Files.readString(dir.resolve("plain.out"))).isEqualTo("run 1 from ''\n");
      // And in accounting (sacct's job record).
      JsonNode acct = h.get("alice-token", "/v1/accounting?job=" + id).json().get("jobs").get(0);
      assertThat(acct.get("lost_gpu_hours").asDouble()).isCloseTo(16 * 21 / 3600.0, within(1e-3)); // shown to 3 places
      // And as metrics: the notice by source and kind, the lost GPU time.
      String metrics = h.get("admin-token", "/prometheus").body();
      assertThat(metrics).containsPattern("squall_interruptions_total\\{kind=\"TERMINATION\",source=\"OPERATOR\"} 1\\.0");
      assertThat(metrics.lines().filter(l -> l.startsWith("squall_interruptions_lost_gpu_seconds_total"))
          .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum())
          .isCloseTo(16 * 21, within(1e-6));
    }
  }

  @Test
  void noRequeueEndsPreemptedAndARepeatedNoticeIsHandledOnce() throws Exception {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long id = h.submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 --no-requeue --output=/dev/null\nsleep 60\n");
      String node = nodesOf(awaitState(time, h, id, "RUNNING")).get(0);
      interrupt(h, node, 20);
      interrupt(h, node, 20); // the same notice again (an agent and the event queue both report)
      JsonNode done = awaitState(time, h, id, "PREEMPTED");
      assertThat(done.get("restart_count").asInt()).isZero();
      // Allocated, launched; once: one signal event (RUNNING), then PREEMPTED, and no way back to the queue.
      assertThat(done.get("events").findValuesAsText("state"))
          .containsExactly("PENDING", "CONFIGURING", "CONFIGURING", "RUNNING", "RUNNING", "PREEMPTED");
      JsonNode hit = time.until("the interruption's outcome", LONG, () -> {
        List<JsonNode> rows = interruptions(h, id);
        return rows.size() == 1 && !rows.get(0).get("outcome").isNull() ? rows.get(0) : null;
      });
      assertThat(hit.get("outcome").asText()).contains("ended PREEMPTED (--no-requeue)");
      assertThat(h.get("admin-token", "/v1/interruptions").json().get("interruptions")).hasSize(1);
    }
  }

  @Test
  void interruptedMoreOftenThanTheLimitTheJobIsHeldWithTheReason() throws Exception {
    Map<String, Object> s = settings();
    s.put("squall.partitions.gpu.max-restarts", 1);
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long id = h.submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 --output=/dev/null\nsleep 60\n");
      // A requeue by hand is a restart, not an interruption: it does not count to max-restarts.
      awaitState(time, h, id, "RUNNING");
      assertThat(h.post("alice-token", "/v1/jobs/" + id + "/requeue", Map.of()).status()).isEqualTo(200);
      time.until("the job to run again", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("restart_count").asInt() == 1 && j.get("state").asText().equals("RUNNING") ? true : null;
      });
      interrupt(h, nodesOf(h.job(id)).get(0), 0);
      time.until("the job to run after its first interruption", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("restart_count").asInt() == 2 && j.get("state").asText().equals("RUNNING") ? true : null;
      });
      interrupt(h, nodesOf(h.job(id)).get(0), 0);
      JsonNode held = time.until("the job held", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("state").asText().equals("PENDING") && j.get("reason").asText().equals("JobHeldUser") ? j : null;
      });
      assertThat(held.get("restart_count").asInt()).isEqualTo(3);
      assertThat(held.get("events").toString()).contains("held: interrupted 2 times, more than max-restarts (1)");
    }
  }

  /**
   * From its second interruption on a job waits the restart backoff (BeginTime), which survives a
   * controller restart; it is not a --begin, so the job's age is kept (SchedulerScenarioTest).
   */
  @Test
  void aJobInterruptedAgainWaitsTheBackoffAcrossARestart() throws Exception {
    Map<String, Object> s = settings();
    s.put("squall.partitions.gpu.restart-backoff", "1h");
    long id;
    String notBefore;
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      id = h.submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 --output=/dev/null\nsleep 60\n");
      interrupt(h, nodesOf(awaitState(time, h, id, "RUNNING")).get(0), 0);
      time.until("the job to run after its first interruption, at once", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("restart_count").asInt() == 1 && j.get("state").asText().equals("RUNNING") ? true : null;
      });
      Instant second = time.clock().instant();
      interrupt(h, nodesOf(h.job(id)).get(0), 0);
      time.tick(); // no notice: stopped and requeued at this instant, not before it plus the backoff
      JsonNode waiting = time.until("the job backing off", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("restart_count").asInt() == 2 && j.get("reason").asText().equals("BeginTime") ? j : null;
      });
      notBefore = waiting.get("not_before").asText();
      assertThat(Instant.parse(notBefore).truncatedTo(ChronoUnit.MILLIS))
          .isEqualTo(second.plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS));
      assertThat(waiting.get("events").toString()).contains("after an interruption, not before " + notBefore);
    }
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      time.until("the reason given again", LONG, () -> h.job(id).get("reason").asText().equals("BeginTime"));
      JsonNode j = h.job(id);
      assertThat(j.get("state").asText()).isEqualTo("PENDING");
      // As stored: the database keeps microseconds.
      assertThat(Instant.parse(j.get("not_before").asText()).truncatedTo(ChronoUnit.MILLIS))
          .isEqualTo(Instant.parse(notBefore).truncatedTo(ChronoUnit.MILLIS));
    }
  }

  @Test
  void aMachineThatVanishesWithoutNoticeIsFoundAndItsJobRequeued() throws Exception {
    Map<String, Object> s = settings();
    s.put("squall.node-timeout", "5m"); // reconciliation, not the missing heartbeats, must find it
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      Path ran = dir.resolve("ran");
      Files.createDirectories(ran);
      long id = h.submit("#!/bin/bash\n#SBATCH -N 2 --gres=gpu:8 --output=/dev/null\n"
          + "srun bash -c 'touch " + ran + "/$SLURMD_NODENAME'\n"
          + "if [ \"$SLURM_RESTART_COUNT\" = 0 ]; then sleep 60; fi\n");
      String node = nodesOf(awaitState(time, h, id, "RUNNING")).get(1);
      time.until("the job to run on both nodes", LONG, () -> Files.exists(ran.resolve(node)) ? true : null);
      c.bean(io.squall.api.fleet.NodeFleet.class).stopNode(node); // the machine is gone, no notice
      JsonNode done = awaitState(time, h, id, "COMPLETED");
      assertThat(done.get("restart_count").asInt()).isEqualTo(1);
      JsonNode hit = interruptions(h, id).get(0);
      assertThat(hit.get("source").asText()).isEqualTo("RECONCILIATION");
      assertThat(hit.get("kind").asText()).isEqualTo("GONE");
      assertThat(hit.get("node").asText()).isEqualTo(node);
    }
  }

  @Test
  void badInjectionsAreRefusedWithTheirReason() {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      assertThat(interrupt(h, "nope", 10).status()).isEqualTo(404);
      Http.Answer a = interrupt(h, "cloud-1", -1);
      assertThat(a.status()).isEqualTo(400);
      assertThat(a.error()).isEqualTo("notice_seconds: from 0 to 3600, not -1");
      a = h.post("admin-token", "/v1/nodes/cloud-1/interrupt", Map.of("kind", "meteor"));
      assertThat(a.status()).isEqualTo(400);
      assertThat(a.error()).isEqualTo("kind: termination, rebalance or gone, not 'meteor'");
      assertThat(h.post("alice-token", "/v1/nodes/cloud-1/interrupt", Map.of()).status()).isEqualTo(403);
    }
  }

  @Test
  void aPreemptedJobGetsItsCheckpointSignalAndGraceIsRequeuedSayingWhoPreemptedItAndResumes() throws Exception {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.ticks", "manual");
    s.put("squall.node-timeout", "30m");
    s.put("squall.partitions.low.nodes", "node-[1-2]");
    s.put("squall.partitions.low.preempt-mode", "requeue");
    s.put("squall.partitions.low.grace-time", "60s");
    s.put("squall.partitions.high.nodes", "node-[1-2]");
    s.put("squall.partitions.high.priority-tier", 2);
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long low = h.submit(training("\n#SBATCH --partition=low"));
      awaitState(time, h, low, "RUNNING");
      time.until("a first checkpoint", LONG, () ->
          h.get("alice-token", "/v1/jobs/" + low + "/checkpoints").json().get("checkpoints").size() > 0 ? true : null);
      long high = h.submit("#!/bin/bash\n#SBATCH --partition=high\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:8\n"
          + "#SBATCH --output=" + dir.resolve("high-%j.out") + "\nsleep 1\necho high done\n");

      awaitState(time, h, high, "COMPLETED");
      JsonNode done = awaitState(time, h, low, "COMPLETED");
      String events = done.get("events").toString();
      assertThat(done.get("restart_count").asInt()).as(events + " / " + h.job(high).get("events")).isEqualTo(1);
      // Signalled, stopped at its checkpoint well within the 60 s grace, requeued saying by whom.
      assertThat(events).contains("preempted by job " + high + ": checkpoint, then requeue within 60 s: SIGUSR1 sent",
          "preempted by job " + high + "; checkpoint step", "after preemption");
      List<String> states = done.get("events").findValuesAsText("state");
      assertThat(states.get(states.indexOf("PREEMPTED") + 1)).isEqualTo("PENDING");
      List<String> out = Files.readAllLines(dir.resolve("train-" + low + ".out"));
      assertThat(out.get(0)).matches("restart 1: resuming from step [1-9][0-9]* \\(.*step-[0-9]+\\.ckpt\\)");
      assertThat(out.get(out.size() - 1)).isEqualTo(uninterruptedLastLine());
      // A preemption is no interruption: nothing recorded against max-restarts.
      assertThat(interruptions(h, low)).isEmpty();
    }
  }
}
