package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.squall.api.state.StateWriter;
import io.squall.core.model.JobKey;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
  private static final String AGENT_TOKEN = "change-me-agent-token";

  @TempDir
  Path dir;
  private HttpServer agent;
  private final List<String> agentCalls = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void fakeAgent() throws IOException {
    agent = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    agent.createContext("/", ex -> {
      try (ex) {
        agentCalls.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
        ex.sendResponseHeaders(200, 2);
        ex.getResponseBody().write("{}".getBytes(StandardCharsets.UTF_8));
      }
    });
    agent.start();
  }

  @AfterEach
  void stopAgent() {
    agent.stop(0);
  }

  @Test
  void aFinishedJobLeavesMemoryAfterMinJobAgeAndIsServedFromTheDatabase() {
    Map<String, Object> s = settings();
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      StateWriter writer = c.bean(StateWriter.class);
      register(h);
      long ran = h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 60\n");
      time.tick();
      Poll.until("the launch", LONG, () -> agentCalls.contains("POST /jobs"));
      heartbeat(h, List.of(Long.toString(ran)));
      exit(h, Long.toString(ran), 3);
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
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "none");
    s.put("squall.partitions.gpu.nodes", "node-1");
    s.put("squall.node-timeout", "1h"); // the clock moves minutes; the node must stay up
    s.put("squall.ticks", "manual");
    return s;
  }

  private void register(Http h) {
    assertThat(h.post(AGENT_TOKEN, "/v1/agent/register", Map.of("name", "node-1", "address",
        "http://127.0.0.1:" + agent.getAddress().getPort(), "gpus", 8, "cpus", 32, "memory_mb", 262144))
        .status()).isEqualTo(200);
  }

  private static String squeue(Http h) {
    return h.get("alice-token", "/v1/jobs").json().get("jobs").toString();
  }

  private static String jobId(long id) {
    return "\"job_id\":\"" + id + "\"";
  }

  private static void heartbeat(Http h, List<String> held) {
    Http.Answer a = h.post(AGENT_TOKEN, "/v1/agent/heartbeat", Map.of("name", "node-1", "running", held));
    assertThat(a.status()).as(a.body()).isEqualTo(200);
  }

  private static void exit(Http h, String job, int code) {
    Http.Answer a = h.post(AGENT_TOKEN, "/v1/agent/events", Map.of("name", "node-1", "events",
        List.of(Map.of("id", 1, "job", job, "type", "exit", "exit_code", code))));
    assertThat(a.status()).as(a.body()).isEqualTo(200);
  }
}
