package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import io.squall.api.auth.Caller;
import io.squall.api.jobs.JobCommands;
import io.squall.api.jobs.SubmitInput;
import io.squall.api.state.ApiException;
import io.squall.api.state.StateWriter;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The job API without nodes (no agent registers, so nothing starts): submission in both forms,
 * --test-only, listing, detail, control, and every error path a user can hit.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobsApiTest implements TestPropertyProvider {
  private static final String PLAIN = "#!/bin/bash\nhostname\n";
  private static final String SCRIPT = "#!/bin/bash\n#SBATCH --job-name=train\n#SBATCH --gpus-per-node=2\nhostname\n";

  @Inject
  EmbeddedServer server;

  @Inject
  StateWriter writer;

  @Inject
  JobCommands commands;

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

  /**
   * sbatch(1) INPUT ENVIRONMENT VARIABLES: the submitter's SBATCH_* variables override the
   * script's directives, and options override them; a bad one is a 400 naming the variable.
   */
  @Test
  void theEnvironmentsInputVariablesComeBetweenDirectivesAndOptions() {
    Http.Answer a = http().post("alice-token", "/v1/jobs", Map.of("script", SCRIPT, "argv", List.of("--time=10"),
        "environment", Map.of("SBATCH_JOB_NAME", "fromenv", "SBATCH_TIMELIMIT", "30", "SBATCH_HOLD", "ignored")));
    assertThat(a.status()).as(a.body()).isEqualTo(201);
    Http.Answer job = http().get("alice-token", "/v1/jobs/" + a.json().get("job_id").asLong());
    assertThat(job.json().get("name").asText()).isEqualTo("fromenv");
    assertThat(job.json().get("time_limit_minutes").asInt()).isEqualTo(10);
    Http.Answer bad = http().post("alice-token", "/v1/jobs", Map.of("script", SCRIPT,
        "environment", Map.of("SBATCH_TIMELIMIT", "soon")));
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.error()).startsWith("SBATCH_TIMELIMIT: --time=soon: ");
  }

  /**
   * sprio's data: each pending job's factors as the scheduler computes them, with the weights;
   * held jobs are left out, and a user sees only their own jobs.
   */
  @Test
  void prioritiesAreTheSchedulersPerPendingJob() {
    long mine = http().submit(Map.of("script", PLAIN, "argv", List.of("--nice=50")));
    long held = http().submit(Map.of("script", PLAIN, "argv", List.of("--hold")));
    long bobs = http().post("bob-token", "/v1/jobs", Map.of("script", PLAIN)).json().get("job_id").asLong();
    Http.Answer a = http().get("alice-token", "/v1/priorities");
    assertThat(a.status()).isEqualTo(200);
    assertThat(a.json().at("/weights/fair_share").asLong()).isEqualTo(10000);
    List<String> ids = a.json().get("jobs").findValuesAsText("job_id");
    assertThat(ids).contains(Long.toString(mine)).doesNotContain(Long.toString(held), Long.toString(bobs));
    JsonNode line = http().get("alice-token", "/v1/priorities?job=" + mine).json().get("jobs").get(0);
    assertThat(line.get("partition").asText()).isEqualTo("gpu");
    assertThat(line.get("nice").asInt()).isEqualTo(50);
    assertThat(line.get("fair_share").asDouble()).isBetween(0.0, 1.0);
    long sum = Math.round(1000 * line.get("age").asDouble() + 10000 * line.get("fair_share").asDouble()
        + 1000 * line.get("job_size").asDouble() + 1000 * line.get("partition_factor").asDouble()
        + 2000 * line.get("qos_factor").asDouble());
    assertThat(line.get("priority").asLong()).isEqualTo(Math.max(0, sum - 50));
    assertThat(http().get("admin-token", "/v1/priorities?user=bob").json().get("jobs").findValuesAsText("job_id"))
        .containsExactly(Long.toString(bobs));
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

  /**
   * A task taken off its array (here by holding it alone) is a job of its own with its own job id,
   * as in Slurm: the first task to leave gets the array's id, later ones new ids. A task is named by
   * either id; the array's id names every task.
   */
  @Test
  void anArrayTaskIsNamedByItsOwnJobIdAsByArrayUnderscoreTask() {
    long id = http().submit(Map.of("script", SCRIPT, "argv", List.of("--array=1-4")));
    assertThat(http().post("alice-token", "/v1/jobs/" + id + "_3/hold", null).status()).isEqualTo(200);
    assertThat(http().post("alice-token", "/v1/jobs/" + id + "_4/hold", null).status()).isEqualTo(200);
    assertThat(http().job(id + "_3").get("job_id_raw").asLong()).isEqualTo(id);
    long own = http().job(id + "_4").get("job_id_raw").asLong();
    assertThat(own).isGreaterThan(id);
    assertThat(http().submit(PLAIN)).isGreaterThan(own);
    // A task still waiting in its array shows as the array's pending tasks (scontrol show job 42_1).
    assertThat(http().job(id + "_1").get("array_pending").asText()).isEqualTo("[1-2]");

    var task = http().job(own);
    assertThat(task.get("job_id").asText()).isEqualTo(id + "_4");
    assertThat(task.get("array_job_id").asLong()).isEqualTo(id);
    assertThat(task.get("array_task_id").asInt()).isEqualTo(4);
    assertThat(http().get("alice-token", "/v1/jobs?job=" + own).json().get("jobs").findValuesAsText("job_id"))
        .containsExactly(id + "_4");
    // A dependency may name the task by its own id (a script's afterok:$SLURM_JOB_ID).
    long after = http().submit(Map.of("script", PLAIN, "argv", List.of("--dependency=afterok:" + own)));

    Http.Answer cancelled = http().delete("alice-token", "/v1/jobs/" + own);
    assertThat(cancelled.status()).isEqualTo(200);
    assertThat(cancelled.json().get("jobs").findValuesAsText("job_id")).containsExactly(id + "_4");
    assertThat(http().jobState(id + "_3")).isEqualTo("PENDING");
    Poll.until("afterok on the cancelled task to be unsatisfiable", java.time.Duration.ofSeconds(30),
        () -> "DependencyNeverSatisfied".equals(http().job(after).get("reason").asText()) ? true : null);
    // The array's id names every task left.
    assertThat(http().delete("alice-token", "/v1/jobs/" + id).json().get("jobs").findValuesAsText("job_id"))
        .containsExactly(id + "", id + "_3");
  }

  /**
   * MaxArraySize is the cluster's: the server refuses an array past it (Slurm's default 1001 here)
   * with the option and the limit, while --parse-only, which knows no cluster, accepts it.
   */
  @Test
  void anArrayAboveMaxArraySizeIsRefusedByTheServerNotByTheParser() {
    Http.Answer over = http().post("alice-token", "/v1/jobs", Map.of("script", SCRIPT, "argv", List.of("--array=0-1001")));
    assertThat(over.status()).isEqualTo(400);
    assertThat(over.error()).isEqualTo("--array=0-1001: Invalid job array specification (task id 1001 is above 1000:"
        + " this cluster's MaxArraySize is 1001, squall.max-array-size)");
    Http.Answer atLimit = http().post("alice-token", "/v1/jobs",
        Map.of("script", SCRIPT, "argv", List.of("--array=0-1000", "--hold")));
    assertThat(atLimit.status()).as(atLimit.body()).isEqualTo(201);
    var parsed = new io.squall.core.sbatch.SbatchParser(java.time.ZoneId.of("UTC"))
        .parse(SCRIPT, "job.sh", List.of("--array=0-1001"), java.time.Instant.EPOCH);
    assertThat(parsed.request().control().array().lastTaskId()).isEqualTo(1001);
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
    // A GRES the cluster does not have is the server's to refuse (the parser cannot know).
    Http.Answer nvme = h.postScript("alice-token", "/v1/jobs", "#!/bin/bash\n#SBATCH --gres=nvme:1\necho\n");
    assertThat(nvme.status()).isEqualTo(400);
    assertThat(nvme.error()).isEqualTo(
        "Invalid generic resource (gres) specification (--gres=nvme:1: this cluster's nodes offer only gpu)");
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

  /** --priority and a negative --nice are for operators: anyone else could jump the queue. */
  @Test
  void onlyOperatorsSetAPriorityOrANegativeNice() {
    Http h = http();
    Http.Answer priority = h.postScript("alice-token", "/v1/jobs?priority=100", PLAIN);
    assertThat(priority.status()).isEqualTo(403);
    assertThat(priority.error()).startsWith("--priority: only operators and administrators");
    Http.Answer top = h.postScript("alice-token", "/v1/jobs", "#!/bin/bash\n#SBATCH --priority=TOP\nhostname\n");
    assertThat(top.status()).isEqualTo(403);
    Http.Answer nice = h.postScript("alice-token", "/v1/jobs?nice=-5", PLAIN);
    assertThat(nice.status()).isEqualTo(403);
    assertThat(nice.error()).startsWith("--nice=-5: only operators and administrators can give a negative nice");
    assertThat(h.postScript("alice-token", "/v1/jobs?nice=5", PLAIN).status()).isEqualTo(201);
    assertThat(h.post("alice-token", "/v1/jobs", Map.of("script", PLAIN, "options", Map.of("nice", "-5"),
        "test_only", true)).status()).isEqualTo(403);
    Http.Answer byOperator = h.postScript("admin-token", "/v1/jobs?priority=100&nice=-5", PLAIN);
    assertThat(byOperator.status()).as(byOperator.body()).isEqualTo(201);
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
    assertThat(h.get(null, "/prometheus").status()).isEqualTo(401);
    assertThat(h.get(null, "/swagger/squall-api-0.1.yml").status()).isEqualTo(401);
    assertThat(h.get("change-me-agent-token", "/prometheus").status()).isEqualTo(401);
    Http.Answer metrics = h.get("bob-token", "/prometheus");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.body()).contains("squall_jobs_started");
    Http.Answer openapi = h.get("bob-token", "/swagger/squall-api-0.1.yml");
    assertThat(openapi.status()).isEqualTo(200);
    assertThat(openapi.body()).contains("/v1/jobs");
  }

  /** Each of these reached the database (and failed everyone's submissions committed with it) or answered 500. */
  @Test
  void whatTheDatabaseWouldRefuseIsA400NamingTheField() {
    Http h = http();
    assertThat(submitJson(h, Map.of("script", SCRIPT, "script_name", "x".repeat(256))).error())
        .startsWith("script_name: at most 255 characters");
    assertThat(submitJson(h, Map.of("script", SCRIPT, "submit_dir", "/" + "d".repeat(4096))).error())
        .startsWith("submit_dir: at most 4096 characters");
    assertThat(submitJson(h, Map.of("script", SCRIPT + "echo \0\n")).error())
        .contains("NUL");
    assertThat(h.postScript("alice-token", "/v1/jobs?script_name=a%0Ab", SCRIPT).error())
        .startsWith("script_name: contains a control character (U+000A at position 1)");
    assertThat(h.postScript("alice-token", "/v1/jobs?submit_dir=relative", SCRIPT).error())
        .startsWith("submit_dir: an absolute path");
    for (String option : List.of("chdir", "output", "error", "input", "job-name", "comment")) {
      Http.Answer a = h.postScript("alice-token", "/v1/jobs?" + option + "=%2Ftmp%2Fa%00b", SCRIPT);
      assertThat(a.status()).as(option).isEqualTo(400);
      assertThat(a.error()).as(option).contains("control character (U+0000");
    }
    Http.Answer directive = h.postScript("alice-token", "/v1/jobs", "#!/bin/bash\n#SBATCH --output=/tmp/a\033b\nhostname\n");
    assertThat(directive.error()).startsWith("line 2: ").contains("control character (U+001B");
    assertThat(h.post("change-me-agent-token", "/v1/agent/heartbeat", Map.of("running", List.of())).error())
        .isEqualTo("name: required");
  }

  @Test
  void jsonIsReadStrictly() {
    Http h = http();
    List<String> argv = new java.util.ArrayList<>();
    argv.add(null);
    assertThat(submitJson(h, Map.of("script", SCRIPT, "argv", argv)).error())
        .isEqualTo("argv[0]: expected a string, not null");
    Map<String, Object> env = new java.util.HashMap<>();
    env.put("A", null);
    assertThat(submitJson(h, Map.of("script", SCRIPT, "environment", env)).error())
        .isEqualTo("environment.A: expected a string, not null");
    assertThat(submitJson(h, Map.of("script", SCRIPT, "script_args", argv)).error())
        .isEqualTo("script_args[0]: expected a string, not null");
    assertThat(submitJson(h, Map.of("script", List.of(SCRIPT))).error()).isEqualTo("script: expected a string, not a list");
    assertThat(submitJson(h, Map.of("script", SCRIPT, "test_only", "yes")).error())
        .isEqualTo("test_only: expected true or false, not a string");
    assertThat(submitJson(h, Map.of("script", SCRIPT, "scirpt", "x")).error()).startsWith("'scirpt': unknown field");
    assertThat(h.send("alice-token", "POST", "/v1/jobs", "application/json", "{\"script\":\"#!/bin/bash\\n\"} trailing")
        .error()).startsWith("the body is not valid JSON");
    assertThat(h.send("alice-token", "POST", "/v1/jobs", "application/json", "{\"script\":\"a\",\"script\":\"b\"}")
        .error()).contains("Duplicate field 'script'");
    assertThat(h.postScript("alice-token", "/v1/jobs?test_only=yes", SCRIPT).error()).startsWith("test_only='yes'");
    assertThat(h.get("admin-token", "/v1/jobs?state=PENDING").json().get("jobs").findValuesAsText("name"))
        .doesNotContain("probe");
    Http.Answer event = h.post("change-me-agent-token", "/v1/agent/events", Map.of());
    assertThat(event.status()).isEqualTo(400);
    assertThat(event.error()).isEqualTo("name: required");
  }

  @Test
  void malformedResourceRequestsAreRefusedNotMisread() {
    Http h = http();
    assertThat(h.postScript("alice-token", "/v1/jobs?gres=gpu::", PLAIN).error()).contains("bad GRES 'gpu::'");
    assertThat(h.postScript("alice-token", "/v1/jobs?gres=gpu:h100:-1", PLAIN).error())
        .contains("the count must be a whole number");
    assertThat(h.postScript("alice-token", "/v1/jobs?nodelist=n%5B1-99999999999999999999%5D", PLAIN).error())
        .contains("numbers have at most 18 digits");
    assertThat(h.postScript("alice-token", "/v1/jobs?nodes=999999", PLAIN).error())
        .startsWith("Node count specification invalid (partition gpu has 4 nodes; the job needs 999999)");
    Http.Answer gpus = h.postScript("alice-token", "/v1/jobs?gpus=999999999", PLAIN);
    assertThat(gpus.error()).as(gpus.body()).startsWith("Node count specification invalid");
    assertThat(h.postScript("alice-token", "/v1/jobs?gpus-per-node=9", PLAIN).error())
        .startsWith("Requested node configuration is not available (the job needs 1 node with 9 GPUs");
    assertThat(h.postScript("alice-token", "/v1/jobs?gpus=a100:1", PLAIN).error())
        .startsWith("Requested node configuration is not available");
    assertThat(h.postScript("alice-token", "/v1/jobs?mem=300G", PLAIN).error())
        .startsWith("Requested node configuration is not available");
    // What a partition could hold is accepted, even when it must wait: all 4 nodes, all 32 GPUs.
    assertThat(h.postScript("alice-token", "/v1/jobs?nodes=4&gpus=32&hold=", PLAIN).status()).isEqualTo(201);
  }

  @Test
  void dependenciesOnUnknownJobsAndOnThemselvesAreAJobDependencyProblem() {
    Http h = http();
    long before = h.submit(SCRIPT);
    Http.Answer self = h.postScript("alice-token", "/v1/jobs?dependency=afterok:" + (before + 1), SCRIPT);
    assertThat(self.status()).isEqualTo(400);
    assertThat(self.error()).contains("Job dependency problem");
    assertThat(h.postScript("alice-token", "/v1/jobs?dependency=afterany:999999", SCRIPT).error())
        .isEqualTo("--dependency=afterany:999999: Job dependency problem (no job 999999)");
    assertThat(h.postScript("alice-token", "/v1/jobs?dependency=afterok:" + before + "_7", SCRIPT).error())
        .contains("Job dependency problem (no job " + before + "_7)");
    assertThat(h.postScript("alice-token", "/v1/jobs?dependency=afterok:" + before + "&hold=", SCRIPT).status())
        .isEqualTo(201);
  }

  /**
   * A change the database refuses at commit (here an event reason over its column's 2,000
   * characters, which no request can cause any more) used to fail every change committed with it.
   * Now the group is committed again change by change: only the change at fault fails, with an
   * error that shows neither SQL nor anyone's data.
   */
  @Test
  void aChangeTheDatabaseRefusesFailsAloneNotItsGroup() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Object> blocker = writer.write(b -> {
      try {
        release.await(30, TimeUnit.SECONDS); // holds the writer so the changes below queue up as one group
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return null;
    });
    Caller alice = Caller.user("alice", "research", false);
    SubmitInput in = new SubmitInput(SCRIPT, "group.sh", List.of("--hold"), List.of(), Map.of(), "/tmp", false);
    JobCommands.Accepted accepted = commands.check(alice, in);
    CompletableFuture<Long> first = commands.submit(alice, in, accepted);
    CompletableFuture<Object> bad = writer.write(b -> {
      b.event(new JobKey(1, null), JobState.PENDING, "secret script text " + "x".repeat(3000));
      return null;
    });
    CompletableFuture<Long> second = commands.submit(alice, in, accepted);
    release.countDown();
    blocker.get(30, TimeUnit.SECONDS);
    long a = first.get(30, TimeUnit.SECONDS);
    long b = second.get(30, TimeUnit.SECONDS);
    assertThat(http().job(a).get("state").asText()).isEqualTo("PENDING");
    assertThat(http().job(b).get("state").asText()).isEqualTo("PENDING");
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> bad.get(30, TimeUnit.SECONDS)))
        .isInstanceOf(ExecutionException.class)
        .cause().isInstanceOf(ApiException.class)
        .hasMessage("the state store refused the change; nothing was changed");
  }

  private static Http.Answer submitJson(Http h, Map<String, Object> body) {
    Http.Answer a = h.post("alice-token", "/v1/jobs", body);
    assertThat(a.status()).as(a.body()).isEqualTo(400);
    return a;
  }
}
