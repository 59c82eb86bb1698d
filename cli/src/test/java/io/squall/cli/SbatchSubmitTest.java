package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.cli.fake.FakeSquall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SbatchSubmitTest {
  private static final String SCRIPT = "#!/bin/bash\n#SBATCH -N 2\nsrun python train.py\n";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private final FakeSquall fake = FakeSquall.start()
      .on("POST", "/v1/jobs", 201, "{\"job_id\":42,\"warnings\":[]}");
  private Cli cli;

  @BeforeEach
  void script() throws IOException {
    Files.writeString(dir.resolve("train.sh"), SCRIPT);
    cli = new Cli(fake).cwd(dir);
  }

  @AfterEach
  void stop() {
    fake.close();
  }

  private JsonNode body() throws IOException {
    FakeSquall.Request r = fake.last();
    assertThat(r.method()).isEqualTo("POST");
    assertThat(r.path()).isEqualTo("/v1/jobs");
    assertThat(r.header("Content-Type")).isEqualTo("application/json");
    assertThat(r.header("Authorization")).isEqualTo("Bearer " + Cli.TOKEN);
    return JSON.readTree(r.body());
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void submitsTheScriptWithOptionsAsTypedAndTheEnvironment() throws IOException {
    Cli.Result r = cli.run("sbatch", "-p", "gpu", "--time=10", "-J", "run", "train.sh", "--lr", "0.1");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("Submitted batch job 42\n");
    assertThat(r.err()).isEmpty();
    JsonNode b = body();
    assertThat(b.get("script").asText()).isEqualTo(SCRIPT);
    assertThat(strings(b.get("argv"))).containsExactly("-p", "gpu", "--time=10", "-J", "run");
    assertThat(b.get("submit_dir").asText()).isEqualTo(dir.toString());
    assertThat(b.get("script_name").asText()).isEqualTo("train.sh");
    assertThat(strings(b.get("script_args"))).containsExactly("--lr", "0.1");
    Map<String, String> environment = JSON.convertValue(b.get("environment"), new TypeReference<>() {});
    assertThat(environment).isEqualTo(cli.environment());
    assertThat(b.has("test_only")).isFalse();
  }

  @Test
  void parsablePrintsTheIdOnlyAndWarningsGoToStderr() {
    fake.on("POST", "/v1/jobs", 201, "{\"job_id\":43,\"warnings\":[\"--mem is ignored\"]}");
    Cli.Result r = cli.run("sbatch", "--parsable", "train.sh");
    assertThat(r.out()).isEqualTo("43\n");
    assertThat(r.err()).isEqualTo("sbatch: warning: --mem is ignored\n");
  }

  @Test
  void clientOptionsAfterTheScriptBelongToTheScript() throws IOException {
    cli.run("sbatch", "-N", "1", "train.sh", "--parsable", "--test-only");
    JsonNode b = body();
    assertThat(strings(b.get("argv"))).containsExactly("-N", "1");
    assertThat(strings(b.get("script_args"))).containsExactly("--parsable", "--test-only");
    assertThat(b.has("test_only")).isFalse();
  }

  @Test
  void testOnlySaysWhenAndWhereLikeSlurm() throws IOException {
    fake.on("POST", "/v1/jobs", 200, """
        {"test_only":true,"job_id":null,"partition":"gpu","expected_start":"2026-11-21T10:00:00Z",
         "nodes":"node-[1-2]","num_gpus":16,"reason":"None"}""");
    Cli.Result r = cli.zone("Europe/Berlin").run("sbatch", "--test-only", "train.sh");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(
        "sbatch: Job 0 to start at 2026-11-21T11:00:00 using 16 GPUs on nodes node-[1-2] in partition gpu\n");
    assertThat(body().get("test_only").asBoolean()).isTrue();
  }

  @Test
  void testOnlyGivesTheExpectedCostRangeWhenTheServiceKnowsIt() throws IOException {
    fake.on("POST", "/v1/jobs", 200, """
        {"test_only":true,"job_id":null,"partition":"gpu","expected_start":"2026-11-21T10:00:00Z",
         "nodes":"node-[1-2]","num_gpus":16,"reason":"None","cost_usd_min":41.6,"cost_usd_max":196.64}""");
    assertThat(cli.zone("UTC").run("sbatch", "--test-only", "train.sh").err()).isEqualTo(
        "sbatch: Job 0 to start at 2026-11-21T10:00:00 using 16 GPUs on nodes node-[1-2] in partition gpu; "
            + "expected cost 41.60 to 196.64 USD (cheapest to dearest offering)\n");
  }

  @Test
  void testOnlyWithoutAStartTimeSaysWhy() {
    fake.on("POST", "/v1/jobs", 200, """
        {"test_only":true,"job_id":null,"partition":null,"expected_start":null,"nodes":null,"reason":"Resources"}""");
    assertThat(cli.run("sbatch", "--test-only", "train.sh").err())
        .isEqualTo("sbatch: Job 0 cannot be scheduled now: Resources\n");
  }

  @Test
  void wrapMakesSlurmsWrapperScript() throws IOException {
    cli.run("sbatch", "-N", "1", "--wrap=hostname; nvidia-smi");
    JsonNode b = body();
    assertThat(b.get("script").asText())
        .isEqualTo("#!/bin/sh\n# This script was created by sbatch --wrap.\n\nhostname; nvidia-smi\n");
    assertThat(b.get("script_name").asText()).isEqualTo("wrap");
    assertThat(strings(b.get("argv"))).containsExactly("-N", "1");
    cli.run("sbatch", "--wrap", "echo hi", "-p", "gpu");
    assertThat(strings(body().get("argv"))).containsExactly("-p", "gpu");
    Cli.Result r = cli.run("sbatch", "--wrap=echo", "train.sh");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("sbatch: error: Script arguments not permitted with --wrap option\n");
  }

  @Test
  void readsTheScriptFromStdinWithoutAFile() throws IOException {
    Cli.Result r = cli.stdin(SCRIPT).run("sbatch", "-t", "5");
    assertThat(r.exit()).isZero();
    JsonNode b = body();
    assertThat(b.get("script").asText()).isEqualTo(SCRIPT);
    assertThat(b.get("script_name").asText()).isEqualTo("sbatch");
    assertThat(strings(b.get("argv"))).containsExactly("-t", "5");
  }

  @Test
  void theServicesParserErrorIsPrintedAsIs() {
    fake.on("POST", "/v1/jobs", 400, """
        {"error":"line 2: #SBATCH --nodes=zwei: invalid node count","line":2,"directive":"--nodes=zwei",
         "reason":"invalid node count"}""");
    Cli.Result r = cli.run("sbatch", "train.sh");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("sbatch: error: line 2: #SBATCH --nodes=zwei: invalid node count\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void localProblemsNeverReachTheService() {
    Cli.Result r = cli.run("sbatch", "missing.sh");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("sbatch: error: Unable to open file " + dir.resolve("missing.sh") + "\n");
    r = cli.run("sbatch", "-Z", "train.sh");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("sbatch: error: ");
    assertThat(fake.requests()).isEmpty();
  }

  @Test
  void unreachableServiceIsReported() {
    Cli.Result r = new Cli(FakeSquall.deadUrl()).cwd(dir).run("sbatch", "train.sh");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("sbatch: error: cannot reach the Squall service at http://127.0.0.1:");
  }

  @Test
  void parseOnlyStaysLocal() {
    Cli.Result r = new Cli(FakeSquall.deadUrl()).cwd(dir).run("sbatch", "--parse-only", "train.sh", "-p", "gpu");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("\"partition\":\"gpu\"").contains("\"nodes_min\":2");
    r = new Cli(FakeSquall.deadUrl()).cwd(dir).run("sbatch", "-p", "gpu", "--parse-only", "missing.sh");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("sbatch: error: Unable to open file " + dir.resolve("missing.sh") + "\n");
  }

  @Test
  void parseOnlyAfterTheScriptIsTheScriptsArgument() throws IOException {
    Cli.Result r = cli.run("sbatch", "-p", "gpu", "train.sh", "--parse-only");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("Submitted batch job 42\n");
    JsonNode b = body();
    assertThat(strings(b.get("argv"))).containsExactly("-p", "gpu");
    assertThat(strings(b.get("script_args"))).containsExactly("--parse-only");
  }

  @Test
  void wrapWithoutItsCommandIsRefused() throws IOException {
    Cli.Result r = cli.run("sbatch", "-N", "1", "--wrap");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("sbatch: error: option '--wrap' requires an argument\n");
    assertThat(fake.requests()).isEmpty();
    // After the script it is the script's argument.
    assertThat(cli.run("sbatch", "train.sh", "--wrap").exit()).isZero();
    assertThat(strings(body().get("script_args"))).containsExactly("--wrap");
  }
}
