package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The job API without nodes (no agent registers, so nothing starts): submission in both forms,
 * --test-only, listing, detail, control, and every error path a user can hit.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobsApiTest implements TestPropertyProvider {
  private static final String SCRIPT = "#!/bin/bash\n#SBATCH --job-name=train\n#SBATCH --gpus-per-node=2\nhostname\n";

  @Inject
  EmbeddedServer server;

  @Override
  public Map<String, String> getProperties() {
    try {
      Path dir = Files.createTempDirectory("squall-api-test");
      return Map.of("squall.data-dir", dir.toString(), "squall.provider", "none", "micronaut.server.port", "-1",
          "micronaut.server.max-request-size", "65536");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Http http() {
    return new Http(server.getURL().toString());
  }

  @Test
  void submitsAScriptAsTextWithOptionsAsQueryParameters() {
    Http.Answer a = http().postScript("alice-token", "/v1/jobs?partition=gpu&nodes=1&hold=&submit_dir=/tmp", SCRIPT);
    assertThat(a.status()).isEqualTo(201);
    long id = a.json().get("job_id").asLong();
    Http.Answer job = http().get("alice-token", "/v1/jobs/" + id);
    assertThat(job.status()).isEqualTo(200);
    assertThat(job.json().get("name").asText()).isEqualTo("train");
    assertThat(job.json().get("state").asText()).isEqualTo("PENDING");
    assertThat(job.json().get("held").asBoolean()).isTrue();
    assertThat(job.json().get("reason").asText()).isEqualTo("JobHeldUser");
    assertThat(job.json().get("work_dir").asText()).isEqualTo("/tmp");
    assertThat(job.json().get("request").get("gpus_per_node").asInt()).isEqualTo(2);
    assertThat(job.json().get("events").get(0).get("state").asText()).isEqualTo("PENDING");
    assertThat(job.json().get("script").asText()).isEqualTo(SCRIPT);
  }

  @Test
  void submitsJsonWithOptionsThatOverrideDirectives() {
    Http.Answer a = http().post("alice-token", "/v1/jobs", Map.of("script", SCRIPT,
        "options", Map.of("job-name", "fromoptions"), "argv", List.of("--time=10"), "submit_dir", "/tmp"));
    assertThat(a.status()).isEqualTo(201);
    Http.Answer job = http().get("alice-token", "/v1/jobs/" + a.json().get("job_id").asLong());
    assertThat(job.json().get("name").asText()).isEqualTo("fromoptions");
    assertThat(job.json().get("time_limit_minutes").asInt()).isEqualTo(10);
  }

  @Test
  void anArraySubmissionAnswersWithTheArrayJobId() {
    Http.Answer a = http().post("alice-token", "/v1/jobs", Map.of("script", SCRIPT, "argv", List.of("--array=1-5%2")));
    long id = a.json().get("job_id").asLong();
    Http.Answer job = http().get("alice-token", "/v1/jobs/" + id);
    assertThat(job.json().get("array_pending").asText()).isEqualTo("[1-5%2]");
    // One task can be held on its own; the rest stays one pending remainder.
    assertThat(http().post("alice-token", "/v1/jobs/" + id + "_3/hold", null).status()).isEqualTo(200);
    Http.Answer list = http().get("alice-token", "/v1/jobs?job=" + id);
    assertThat(list.json().get("jobs")).hasSize(2);
    assertThat(http().get("alice-token", "/v1/jobs/" + id).json().get("array_pending").asText()).isEqualTo("[1-2,4-5%2]");
  }

  @Test
  void testOnlyReportsWithoutQueueing() {
    int before = http().get("admin-token", "/v1/jobs").json().get("jobs").size();
    Http.Answer a = http().post("alice-token", "/v1/jobs", Map.of("script", SCRIPT, "test_only", true));
    assertThat(a.status()).isEqualTo(200);
    assertThat(a.json().get("test_only").asBoolean()).isTrue();
    assertThat(a.json().get("job_id").isNull()).isTrue();
    // No node has registered: the job could only wait.
    assertThat(a.json().get("reason").asText()).isNotEqualTo("None");
    assertThat(http().get("admin-token", "/v1/jobs").json().get("jobs").size()).isEqualTo(before);
  }

  @Test
  void aBadScriptIs400WithTheParsersLineAndDirective() {
    Http.Answer a = http().postScript("alice-token", "/v1/jobs", "#!/bin/bash\n#SBATCH --nodes=abc\necho\n");
    assertThat(a.status()).isEqualTo(400);
    assertThat(a.error()).startsWith("line 2: --nodes=abc: ");
    assertThat(a.json().get("directive").asText()).isEqualTo("--nodes=abc");
  }

  @Test
  void refusalsAreClearErrorsNotServerErrors() {
    Http h = http();
    assertThat(h.postScript(null, "/v1/jobs", SCRIPT).status()).isEqualTo(401);
    assertThat(h.postScript("wrong", "/v1/jobs", SCRIPT).error()).isEqualTo("unknown API token");
    assertThat(h.postScript("change-me-agent-token", "/v1/jobs", SCRIPT).status()).isEqualTo(401);
    assertThat(h.postScript("alice-token", "/v1/jobs?partition=nope", SCRIPT).error())
        .contains("invalid partition name");
    assertThat(h.postScript("alice-token", "/v1/jobs?account=other", SCRIPT).status()).isEqualTo(400);
    assertThat(h.get("alice-token", "/v1/jobs/999999").status()).isEqualTo(404);
    assertThat(h.get("alice-token", "/v1/jobs/abc").status()).isEqualTo(400);
    assertThat(h.delete("alice-token", "/v1/jobs/999999").status()).isEqualTo(404);
    assertThat(h.send("alice-token", "POST", "/v1/jobs", "application/json", "{not json").status()).isEqualTo(400);
    assertThat(h.post("alice-token", "/v1/jobs", Map.of("options", Map.of())).status()).isEqualTo(400);
    Http.Answer tooBig = h.postScript("alice-token", "/v1/jobs", "#!/bin/bash\n" + "#".repeat(70_000));
    assertThat(tooBig.status()).isEqualTo(413);
    assertThat(tooBig.error()).isNotBlank();
    assertThat(h.get("alice-token", "/v1/nope").status()).isEqualTo(404);
  }

  @Test
  void usersSeeAndControlOnlyTheirOwnJobs() {
    Http h = http();
    long id = h.postScript("alice-token", "/v1/jobs", SCRIPT).json().get("job_id").asLong();
    assertThat(h.get("bob-token", "/v1/jobs/" + id).status()).isEqualTo(404);
    assertThat(h.delete("bob-token", "/v1/jobs/" + id).status()).isEqualTo(403);
    assertThat(h.get("bob-token", "/v1/jobs").json().get("jobs").findValuesAsText("job_id")).doesNotContain(
        Long.toString(id));
    assertThat(h.get("admin-token", "/v1/jobs/" + id).status()).isEqualTo(200);
    Http.Answer cancelled = h.delete("alice-token", "/v1/jobs/" + id);
    assertThat(cancelled.status()).isEqualTo(200);
    assertThat(cancelled.json().get("jobs").get(0).get("state").asText()).isEqualTo("CANCELLED");
    assertThat(h.delete("alice-token", "/v1/jobs/" + id).status()).isEqualTo(409);
  }

  @Test
  void holdAndReleaseFollowSlurm() {
    Http h = http();
    long id = h.postScript("alice-token", "/v1/jobs", SCRIPT).json().get("job_id").asLong();
    assertThat(h.post("alice-token", "/v1/jobs/" + id + "/release", null).status()).isEqualTo(409);
    assertThat(h.post("alice-token", "/v1/jobs/" + id + "/hold", null).json().get("jobs").get(0).get("held")
        .asBoolean()).isTrue();
    assertThat(h.post("alice-token", "/v1/jobs/" + id + "/release", null).status()).isEqualTo(200);
    assertThat(h.post("alice-token", "/v1/jobs/" + id + "/requeue", null).status()).isEqualTo(409);
    assertThat(h.delete("alice-token", "/v1/jobs/" + id + "?signal=BOGUS").status()).isEqualTo(400);
  }

  @Test
  void listsFilterByStateUserAndName() {
    Http h = http();
    h.postScript("bob-token", "/v1/jobs?job-name=bobsjob", SCRIPT);
    Http.Answer list = h.get("admin-token", "/v1/jobs?user=bob&name=bobsjob&state=PENDING");
    assertThat(list.json().get("jobs").findValuesAsText("user")).containsOnly("bob");
    assertThat(h.get("admin-token", "/v1/jobs?state=RUNNING").json().get("jobs")).isEmpty();
  }

  @Test
  void clusterEndpointsDescribeTheConfiguredNodes() {
    Http h = http();
    Http.Answer nodes = h.get("alice-token", "/v1/nodes");
    assertThat(nodes.json().get("nodes")).hasSize(4);
    assertThat(nodes.json().get("nodes").get(0).get("state").asText()).isEqualTo("DOWN");
    assertThat(nodes.json().get("nodes").get(0).get("placement_group").asText()).isEqualTo("gpu-pg1");
    assertThat(nodes.json().get("nodes").get(3).get("placement_group").asText()).isEqualTo("gpu-pg2");
    Http.Answer parts = h.get("alice-token", "/v1/partitions");
    assertThat(parts.json().get("partitions").get(0).get("nodes").asText()).isEqualTo("node-[1-4]");
    assertThat(parts.json().get("partitions").get(0).get("total_gpus").asInt()).isEqualTo(32);
    assertThat(h.get("alice-token", "/v1/accounting").status()).isEqualTo(200);
    assertThat(h.get("alice-token", "/v1/accounting?start=yesterday").status()).isEqualTo(400);
  }

  @Test
  void healthMetricsAndOpenApiAreServed() {
    Http h = http();
    assertThat(h.get(null, "/health").status()).isEqualTo(200);
    Http.Answer metrics = h.get(null, "/prometheus");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.body()).contains("squall_jobs_started");
    Http.Answer openapi = h.get(null, "/swagger/squall-api-0.1.yml");
    assertThat(openapi.status()).isEqualTo(200);
    assertThat(openapi.body()).contains("/v1/jobs");
  }
}
