package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.cli.fake.FakeSquall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sbatch --wait: blocks until the job (every array task) has ended and exits with its exit code. */
class SbatchWaitTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private final FakeSquall fake = FakeSquall.start()
      .on("POST", "/v1/jobs", 201, "{\"job_id\":42,\"warnings\":[]}");
  private Cli cli;

  @BeforeEach
  void script() throws IOException {
    Files.writeString(dir.resolve("train.sh"), "#!/bin/bash\nexit 3\n");
    cli = new Cli(fake).cwd(dir);
  }

  @AfterEach
  void stop() {
    fake.close();
  }

  private static String jobs(String... jobs) {
    return "{\"jobs\":[" + String.join(",", jobs) + "]}";
  }

  private static String job(String id, String state, Integer exitCode, Integer signal) {
    return "{\"job_id\":\"" + id + "\",\"state\":\"" + state + "\",\"exit_code\":" + exitCode
        + ",\"exit_signal\":" + signal + "}";
  }

  @Test
  void waitsUntilTheJobEndsAndExitsWithItsExitCode() throws IOException {
    fake.onEach("GET", "/v1/jobs",
        jobs(job("42", "PENDING", null, null)),
        jobs(job("42", "RUNNING", null, null)),
        jobs(job("42", "RUNNING", null, null)),
        jobs(job("42", "RUNNING", null, null)),
        jobs(job("42", "FAILED", 3, null)));
    Cli.Result r = cli.run("sbatch", "--wait", "-N", "1", "train.sh");
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.out()).isEqualTo("Submitted batch job 42\n");
    // --wait is sbatch's own: the service is not sent it.
    List<String> argv = new ArrayList<>();
    JSON.readTree(fake.requests().get(0).body()).get("argv").forEach(n -> argv.add(n.asText()));
    assertThat(argv).containsExactly("-N", "1");
    List<FakeSquall.Request> polls = fake.requests().subList(1, fake.requests().size());
    assertThat(polls).hasSize(5).allSatisfy(p -> assertThat(p.query()).isEqualTo(Map.of("job", "42")));
    // Slurm's pace: 2 s, then four times longer, at most 32 s.
    assertThat(cli.pauses()).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(8), Duration.ofSeconds(32),
        Duration.ofSeconds(32), Duration.ofSeconds(32));
  }

  @Test
  void aJobThatCompletedOrWasCancelledBeforeItRanExitsZeroAndASignalMakesOne() {
    fake.onEach("GET", "/v1/jobs", jobs(job("42", "COMPLETED", 0, null)));
    assertThat(cli.run("sbatch", "-W", "train.sh").exit()).isZero();
    fake.onEach("GET", "/v1/jobs", jobs(job("42", "CANCELLED", 0, 15)));
    assertThat(cli.run("sbatch", "--wait", "train.sh").exit()).isEqualTo(1);
    // Cancelled while pending: Slurm records 0:0 and sbatch --wait exits 0 (WEXITSTATUS of it).
    fake.onEach("GET", "/v1/jobs", jobs(job("42", "CANCELLED", null, null)));
    assertThat(cli.run("sbatch", "--wait", "train.sh").exit()).isZero();
    // Ended without an exit code of its own otherwise: nothing to call a success.
    fake.onEach("GET", "/v1/jobs", jobs(job("42", "NODE_FAIL", null, null)));
    assertThat(cli.run("sbatch", "--wait", "train.sh").exit()).isEqualTo(1);
  }

  @Test
  void anArrayEndsWhenEveryTaskHasAndExitsWithTheHighestCode() {
    fake.onEach("GET", "/v1/jobs",
        jobs(job("42_1", "RUNNING", null, null),
            "{\"job_id\":\"42\",\"array_job_id\":42,\"array_pending\":\"[2-3]\",\"state\":\"PENDING\"}"),
        jobs(job("42_1", "COMPLETED", 0, null), job("42_2", "FAILED", 7, null), job("42_3", "RUNNING", null, null)),
        // Task 2 left the controller's memory meanwhile: its exit code still counts.
        jobs(job("42_1", "COMPLETED", 0, null), job("42_3", "FAILED", 2, null)));
    Cli.Result r = cli.run("sbatch", "--parsable", "--wait", "train.sh");
    assertThat(r.out()).isEqualTo("42\n");
    assertThat(r.exit()).isEqualTo(7);
  }

  @Test
  void aPassingOutageIsReportedAndWaitedOut() {
    fake.on("GET", "/v1/jobs", 503, "{\"error\":\"the database is busy\"}")
        .then("GET", "/v1/jobs", 200, jobs(job("42", "COMPLETED", 0, null)));
    Cli.Result r = cli.run("sbatch", "--wait", "train.sh");
    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEqualTo(
        "sbatch: error: Currently unable to load job state information, retrying: the database is busy\n");
  }

  @Test
  void aJobTheControllerForgotIsLookedUpInAccounting() {
    fake.onEach("GET", "/v1/jobs", jobs());
    fake.on("GET", "/v1/accounting", 200, "{\"jobs\":[{\"job_id\":\"42\",\"state\":\"FAILED\",\"exit_code\":4}]}");
    assertThat(cli.run("sbatch", "--wait", "train.sh").exit()).isEqualTo(4);
    fake.on("GET", "/v1/accounting", 200, "{\"jobs\":[]}");
    Cli.Result r = cli.run("sbatch", "--wait", "train.sh");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("sbatch: error: Job 42 no longer found and exit code not found\n");
  }

  @Test
  void withoutWaitSbatchReturnsAtOnce() {
    Cli.Result r = cli.run("sbatch", "train.sh");
    assertThat(r.exit()).isZero();
    assertThat(fake.requests()).hasSize(1);
    assertThat(cli.pauses()).isEmpty();
  }
}
