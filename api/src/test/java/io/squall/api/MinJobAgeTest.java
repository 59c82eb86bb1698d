package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Slurm's MinJobAge (300 s by default): a finished job leaves the controller's memory once it has
 * been finished that long, and the API and sacct serve it from the database; squeue no longer
 * lists it. A finished job an unfinished one depends on stays. On the manual clock; the node's
 * agent is a fake that takes every call, and the test reports what it runs.
 */
class MinJobAgeTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  @TempDir
  Path dir;
  @AutoClose
  private final FakeAgent agent = new FakeAgent();

  @Test
  void aFinishedJobLeavesMemoryAfterMinJobAgeAndIsServedFromTheDatabase() {
    finishedJobLeavesMemory(null);
  }

  /** The same on PostgreSQL (.ci/run starts one; skipped without it): history is read with SQL of its own. */
  @Test
  void onPostgres() throws java.sql.SQLException {
    finishedJobLeavesMemory(Controllers.emptyPostgres());
  }

  private void finishedJobLeavesMemory(String jdbcUrl) {
    Map<String, Object> s = settings(jdbcUrl);
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      StateWriter writer = c.bean(StateWriter.class);
      agent.register(h, "node-1");
      long ran = h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 60\n");
      time.tick();
      Poll.until("the launch", LONG, () -> agent.called("POST /jobs"));
      agent.heartbeat(h, "node-1", List.of(Long.toString(ran)));
      agent.exit(h, "node-1", Long.toString(ran), 3);
      assertThat(h.jobState(ran)).isEqualTo("FAILED");

      // A job that can never run (afterok on a job that failed) keeps the failed one in memory;
      // another finished job, that nothing waits on, goes.
      long waiting = h.submit("#!/bin/bash\n#SBATCH --dependency=afterok:" + ran + " --output=/dev/null\ntrue\n");
      long cancelled = h.submit("#!/bin/bash\n#SBATCH --hold --output=/dev/null\ntrue\n");
      assertThat(h.delete("alice-token", "/v1/jobs/" + cancelled).status()).isEqualTo(200);

      time.tickAfter(Duration.ofSeconds(299));
      assertThat(writer.state().job(JobKey.of(cancelled))).isNotNull();
      assertThat(squeue(h)).contains(jobId(cancelled));

      time.tickAfter(Duration.ofSeconds(2));
      assertThat(writer.state().job(JobKey.of(cancelled))).as("past MinJobAge").isNull();
      assertThat(squeue(h)).doesNotContain(jobId(cancelled));
      assertThat(h.jobState(cancelled)).as("served from the database").isEqualTo("CANCELLED");
      assertThat(writer.state().job(JobKey.of(ran))).as("depended on").isNotNull();
      assertThat(h.job(waiting).get("reason").asText()).isEqualTo("DependencyNeverSatisfied");

      assertThat(h.delete("alice-token", "/v1/jobs/" + waiting).status()).isEqualTo(200);
      time.tickAfter(Duration.ofSeconds(301));
      assertThat(writer.state().job(JobKey.of(ran))).isNull();
      assertThat(writer.state().job(JobKey.of(waiting))).isNull();
      JsonNode stored = h.job(ran);
      assertThat(stored.get("state").asText()).isEqualTo("FAILED");
      assertThat(stored.get("exit_code").asInt()).isEqualTo(3);
      JsonNode sacct = h.get("alice-token", "/v1/accounting?job=" + ran + "&start=2000-01-01T00:00:00").json();
      assertThat(sacct.get("jobs")).hasSize(1);
      assertThat(sacct.get("jobs").get(0).get("state").asText()).isEqualTo("FAILED");
      assertThat(sacct.get("jobs").get(0).get("num_gpus").asInt()).isEqualTo(8);
      JsonNode window = h.get("alice-token", "/v1/accounting?start=2000-01-01T00:00:00").json();
      assertThat(window.get("jobs").toString()).contains(jobId(ran));
    }
  }

  /** Sacct and the API find an array task that left memory by its own job id, as by 42_3. */
  @Test
  void anArrayTaskThatLeftMemoryIsStillNamedByItsOwnJobId() {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      agent.register(h, "node-1");
      long id = h.submit("#!/bin/bash\n#SBATCH --array=1-2 --gres=gpu:8 --output=/dev/null\ntrue\n");
      for (int task = 1; task <= 2; task++) {
        String key = id + "_" + task;
        time.tick();
        Poll.until(key + " to run", LONG, () -> "RUNNING".equals(h.jobState(key)) ? true : null);
        agent.heartbeat(h, "node-1", List.of(key));
        agent.exit(h, "node-1", key, 0);
      }
      long own = h.job(id + "_2").get("job_id_raw").asLong();
      assertThat(own).isGreaterThan(id);

      time.tickAfter(Duration.ofSeconds(301));
      assertThat(c.bean(StateWriter.class).state().job(JobKey.task(id, 2))).as("past MinJobAge").isNull();
      assertThat(h.job(own).get("job_id").asText()).isEqualTo(id + "_2");
      String window = "&start=2000-01-01T00:00:00";
      assertThat(h.get("alice-token", "/v1/accounting?job=" + own + window).json().get("jobs")
          .findValuesAsText("job_id")).containsExactly(id + "_2");
      assertThat(h.get("alice-token", "/v1/accounting?job=" + id + window).json().get("jobs")
          .findValuesAsText("job_id")).containsExactly(id + "_1", id + "_2");
    }
  }

  @Test
  void aRestartLoadsOnlyWhatMemoryWouldHoldAndKeepsTheJobIdsGoing() {
    Map<String, Object> s = settings();
    long old;
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      old = h.submit("#!/bin/bash\n#SBATCH --hold --output=/dev/null\ntrue\n");
      assertThat(h.delete("alice-token", "/v1/jobs/" + old).status()).isEqualTo(200);
      ManualTime.of(c).tickAfter(Duration.ofSeconds(301));
      assertThat(c.bean(StateWriter.class).state().job(JobKey.of(old))).isNull();
    }
    // The restarted controller's manual clock starts at the wall clock's now, which is before the
    // first one's (moved 301 s on) but after the job ended: past a MinJobAge of 1 ms.
    s.put("squall.min-job-age", "1ms");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      assertThat(c.bean(StateWriter.class).state().job(JobKey.of(old))).as("not loaded").isNull();
      assertThat(h.jobState(old)).isEqualTo("CANCELLED");
      long next = h.submit("#!/bin/bash\n#SBATCH --hold --output=/dev/null\ntrue\n");
      assertThat(next).isGreaterThan(old);
    }
  }

  private Map<String, Object> settings() {
    return settings(null);
  }

  private Map<String, Object> settings(String jdbcUrl) {
    // The clock moves minutes; the node must stay up.
    return Controllers.manualSettings(dir.resolve("data"), jdbcUrl, "node-1", "1h");
  }

  private static String squeue(Http h) {
    return h.get("alice-token", "/v1/jobs").json().get("jobs").toString();
  }

  private static String jobId(long id) {
    return "\"job_id\":\"" + id + "\"";
  }
}
