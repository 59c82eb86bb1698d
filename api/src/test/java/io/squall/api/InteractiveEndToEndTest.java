package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Interactive work outside a batch job, as on a login node: the real {@code salloc} and {@code
 * srun} (the CLI, each its own process) against the real service with four real agents on the
 * local provider. srun allocates, runs a step on the allocated nodes and relinquishes; salloc
 * runs a command with the allocation's environment, and srun inside it starts steps there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InteractiveEndToEndTest {
  private static final Duration LONG = Duration.ofSeconds(90);
  private Path dir;
  private Controllers.Running server;
  private Http http;
  private LoginNode login;

  @BeforeAll
  void start() throws IOException {
    dir = Files.createTempDirectory("squall-interactive");
    server = Controllers.start(Controllers.settings(dir.resolve("data"), null, "local"));
    http = new Http(server.url());
    Poll.until("4 nodes to register", LONG, () -> {
      JsonNode nodes = http.get("admin-token", "/v1/nodes").json().get("nodes");
      return nodes.findValuesAsText("state").stream().filter("IDLE"::equals).count() == 4;
    });
    login = new LoginNode(dir, server.url());
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void srunOutsideAJobAllocatesRunsOnEveryNodeAndExitsWithTheTasksCode() {
    LoginNode.Run run = login.run("alice-token", "srun", "-N2", "--gres=gpu:8", "-l", "bash", "-c",
        "echo host=$SLURMD_NODENAME job=$SLURM_JOB_ID nodes=$SLURM_JOB_NODELIST gpus=$CUDA_VISIBLE_DEVICES; exit 3");
    assertThat(run.status()).as(run.toString()).isEqualTo(3);
    Matcher m = Pattern.compile("0: host=(node-\\d) job=(\\d+) nodes=(\\S+) gpus=0,1,2,3,4,5,6,7\n").matcher(run.out());
    assertThat(m.find()).as(run.toString()).isTrue();
    String id = m.group(2);
    assertThat(run.out()).matches("(?s).*1: host=node-\\d job=" + id + " nodes=" + Pattern.quote(m.group(3))
        + " gpus=0,1,2,3,4,5,6,7\n.*");
    assertThat(run.out().lines().filter(l -> l.contains("host=" + m.group(1))).count()).as("two nodes").isEqualTo(1);
    assertThat(run.err()).contains("srun: error: " + m.group(1) + ": task 0: Exited with exit code 3");
    // Relinquished when the step ended: the job is over, FAILED with the step's code, as Slurm
    // records an srun whose tasks failed; it was a job like any other, named after the command.
    JsonNode job = http.job(id);
    assertThat(job.get("state").asText()).isEqualTo("FAILED");
    assertThat(job.get("exit_code").asInt()).isEqualTo(3);
    assertThat(job.get("name").asText()).isEqualTo("bash");
    assertThat(job.get("num_gpus").asInt()).isEqualTo(16);
    assertThat(job.get("batch").asBoolean()).isFalse();
    assertThat(job.get("events").toString()).contains("relinquished by alice");

    LoginNode.Run hostname = login.run("alice-token", "srun", "-N2", "hostname");
    assertThat(hostname.status()).as(hostname.toString()).isZero();
    assertThat(hostname.out().lines().toList()).hasSize(2).allMatch(l -> !l.isBlank());
  }

  @Test
  void sallocRunsItsCommandWithTheAllocationAndSrunInsideItStartsSteps() {
    LoginNode.Run run = login.run("alice-token", "salloc", "-N1", "--gpus-per-node=2", "-J", "notebook", "bash", "-c",
        "srun bash -c 'echo step on $SLURMD_NODENAME gpus=$CUDA_VISIBLE_DEVICES step=$SLURM_STEP_ID';"
            + " srun -l hostname;"
            + " echo salloc job=$SLURM_JOB_ID nodes=$SLURM_JOB_NODELIST n=$SLURM_NNODES name=$SLURM_JOB_NAME;"
            + " exit 7");
    assertThat(run.status()).as(run.toString()).isEqualTo(7);
    Matcher m = Pattern.compile("salloc job=(\\d+) nodes=(node-\\d) n=1 name=notebook\n").matcher(run.out());
    assertThat(m.find()).as(run.toString()).isTrue();
    String id = m.group(1);
    assertThat(run.out()).contains("step on " + m.group(2) + " gpus=0,1 step=0\n").contains("0: ");
    assertThat(run.err()).contains("salloc: Granted job allocation " + id + "\n")
        .contains("salloc: Relinquishing job allocation " + id + "\n");
    // Both steps ran in the one allocation, which lasted until salloc gave it back.
    JsonNode job = http.job(id);
    assertThat(job.get("state").asText()).isEqualTo("FAILED");
    assertThat(job.get("exit_code").asInt()).isEqualTo(7);
    assertThat(job.get("name").asText()).isEqualTo("notebook");
    assertThat(job.get("events").toString()).contains("relinquished by alice");
  }

  @Test
  void theAllocationEndsWhenItsClientRelinquishesItNotBefore() throws Exception {
    Path flag = dir.resolve("go");
    Process salloc = login.start("alice-token", "salloc", "-N1", "bash", "-c",
        "echo job=$SLURM_JOB_ID; while [ ! -e " + flag + " ]; do sleep 0.1; done; srun true");
    String id = login.printedJob(salloc, LONG, Poll::until);
    // Nothing runs on the node, yet the allocation holds it while its command runs.
    assertThat(http.jobState(id)).isEqualTo("RUNNING");
    String node = http.job(id).get("nodes").asText();
    assertThat(http.nodeState(node)).isIn("ALLOCATED", "MIXED");
    Files.writeString(flag, "");
    assertThat(salloc.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(salloc.exitValue()).isZero();
    assertThat(http.jobState(id)).isEqualTo("COMPLETED");
    Poll.until(node + " to be free again", LONG, () -> http.nodeState(node).equals("IDLE"));
  }

  @Test
  void scancelEndsARunningAllocationAndItsStep() {
    Process srun = login.start("alice-token", "srun", "-N1", "bash", "-c", "echo job=$SLURM_JOB_ID; sleep 300");
    String id = login.printedJob(srun, LONG, Poll::until);
    assertThat(http.delete("alice-token", "/v1/jobs/" + id).status()).isEqualTo(200);
    // No batch script reports an exit: the allocation ends at once and its tasks are killed.
    assertThat(http.jobState(id)).isEqualTo("CANCELLED");
    int status = Poll.until("srun to end", LONG, () -> srun.isAlive() ? null : srun.exitValue());
    assertThat(status).isNotZero();
  }

  @Test
  void sallocEndsItsCommandWhenTheAllocationIsCancelledUnderIt() throws Exception {
    Process salloc = login.start("alice-token", "salloc", "-N1", "bash", "-c", "echo job=$SLURM_JOB_ID; exec sleep 300");
    String id = login.printedJob(salloc, LONG, Poll::until);
    assertThat(http.delete("alice-token", "/v1/jobs/" + id).status()).isEqualTo(200);
    assertThat(salloc.waitFor(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(salloc.exitValue()).as("the command's SIGHUP").isEqualTo(129);
    assertThat(login.read(salloc, false)).contains("salloc: Job allocation " + id + " has been revoked.")
        .doesNotContain("Relinquishing");
    assertThat(http.jobState(id)).isEqualTo("CANCELLED");
  }

  @Test
  void anSrunStoppedWhileItRunsGivesItsAllocationBack() {
    Process srun = login.start("alice-token", "srun", "-N1", "bash", "-c", "echo job=$SLURM_JOB_ID; sleep 300");
    String id = login.printedJob(srun, LONG, Poll::until);
    srun.destroy(); // SIGTERM, as a closed terminal or Ctrl-C would stop it
    Poll.until("srun to end", LONG, () -> !srun.isAlive());
    assertThat(http.jobState(id)).isEqualTo("CANCELLED");
  }

  @Test
  void refusedRequestsSayWhyAndAllocateNothing() {
    LoginNode.Run partition = login.run("alice-token", "srun", "-p", "nosuch", "hostname");
    assertThat(partition.status()).isEqualTo(1);
    assertThat(partition.err()).contains("srun: error: Unable to allocate resources: --partition=nosuch");
    LoginNode.Run tooBig = login.run("alice-token", "salloc", "-N", "9", "true");
    assertThat(tooBig.status()).isEqualTo(1);
    assertThat(tooBig.err()).contains("salloc: error: Job submit/allocate failed: Node count specification invalid");
    LoginNode.Run noCommand = login.run("alice-token", "srun", "-N1");
    assertThat(noCommand.status()).isEqualTo(1);
    assertThat(noCommand.err()).contains("srun: error: no command given to execute");

    // The API: an allocation without a script, never an array; steps only in one's own running allocation.
    assertThat(http.post("alice-token", "/v1/jobs", Map.of("interactive", true, "script", "#!/bin/sh\n")).status())
        .isEqualTo(400);
    Http.Answer array = http.post("alice-token", "/v1/jobs", Map.of("interactive", true, "argv", List.of("--array=1-3")));
    assertThat(array.status()).isEqualTo(400);
    assertThat(array.error()).contains("cannot be a job array");
    long batch = http.submit("#!/bin/sh\nsleep 300\n");
    Poll.until("the batch job to run", LONG, () -> http.jobState(batch).equals("RUNNING"));
    Http.Answer intoBatch = http.post("alice-token", "/v1/jobs/" + batch + "/steps", null);
    assertThat(intoBatch.status()).isEqualTo(409);
    assertThat(intoBatch.error()).contains("is a batch job");
    assertThat(http.post("alice-token", "/v1/jobs/" + batch + "/complete", Map.of()).status()).isEqualTo(409);
    http.delete("alice-token", "/v1/jobs/" + batch);

    Process alloc = login.start("bob-token", "salloc", "-N1", "bash", "-c", "echo job=$SLURM_JOB_ID; sleep 300");
    String bobs = login.printedJob(alloc, LONG, Poll::until);
    // Another user's allocation is not said to exist; its credential is never handed out.
    Http.Answer stolen = http.post("alice-token", "/v1/jobs/" + bobs + "/steps", null);
    assertThat(stolen.status()).isEqualTo(404);
    assertThat(stolen.body()).doesNotContain("credential");
    LoginNode.Run intoBobs = login.run(Map.of("SLURM_JOB_ID", bobs), "alice-token", "srun", "hostname");
    assertThat(intoBobs.status()).isEqualTo(1);
    assertThat(intoBobs.err()).contains("srun: error: Unable to create step for job " + bobs
        + ": Invalid job id specified");
    Http.Answer bobsStep = http.post("bob-token", "/v1/jobs/" + bobs + "/steps", null);
    assertThat(bobsStep.status()).isEqualTo(200);
    assertThat(bobsStep.json().get("step").asInt()).isZero();
    assertThat(bobsStep.json().get("credential").asText()).isNotEmpty();
    assertThat(bobsStep.json().get("environment").get("SLURM_JOB_ID").asText()).isEqualTo(bobs);
    assertThat(http.post("bob-token", "/v1/jobs/" + bobs + "/complete", Map.of("exit_code", 300)).status())
        .isEqualTo(400);
    alloc.destroy();
    Poll.until("bob's salloc to end", LONG, () -> !alloc.isAlive());
    assertThat(http.get("bob-token", "/v1/jobs/" + bobs).json().get("state").asText()).isEqualTo("CANCELLED");
  }
}
