package io.squall.core.sbatch;

import static io.squall.core.sbatch.ParserFixtures.NOW;
import static io.squall.core.sbatch.ParserFixtures.PARSER;
import static io.squall.core.sbatch.ParserFixtures.SCRIPT_NAME;
import static io.squall.core.sbatch.ParserFixtures.directives;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * sbatch(1) INPUT ENVIRONMENT VARIABLES: "Upon startup, sbatch will read and handle the options set
 * in the following environment variables ... Note that environment variables will override any
 * options set in a batch script, and command line options will override any environment variables."
 */
class InputEnvironmentTest {
  private static SbatchParser.Result parse(String script, Map<String, String> env, String... explicit) {
    return PARSER.parse(script, SCRIPT_NAME, env, List.of(explicit), NOW);
  }

  @Test
  void theEnvironmentOverridesTheScriptAndTheCommandLineOverridesBoth() {
    String script = directives("--partition=script", "--time=10", "--account=ml");
    Map<String, String> env = Map.of("SBATCH_PARTITION", "env", "SBATCH_TIMELIMIT", "1-00:00:00");

    JobRequest fromEnv = parse(script, env).request();
    assertThat(fromEnv.placement().partitions()).containsExactly("env");
    assertThat(fromEnv.timing().timeLimitMinutes()).isEqualTo(1440);
    assertThat(fromEnv.control().account()).isEqualTo("ml");

    JobRequest fromLine = parse(script, env, "-p", "line").request();
    assertThat(fromLine.placement().partitions()).containsExactly("line");
    assertThat(fromLine.timing().timeLimitMinutes()).isEqualTo(1440);
  }

  @Test
  void theVariablesTheManPageNamesStandForTheirOptions() {
    JobRequest r = parse(directives(), Map.of(
        "SBATCH_ACCOUNT", "physics",
        "SBATCH_QOS", "high",
        "SBATCH_GRES", "gpu:h100:4",
        "SBATCH_ARRAY_INX", "0-7%2",
        "SBATCH_JOB_NAME", "sweep",
        "SBATCH_MEM_PER_NODE", "64G",
        "SBATCH_REQ_SWITCH", "1",
        "SBATCH_WAIT4SWITCH", "10:00")).request();
    assertThat(r.control().account()).isEqualTo("physics");
    assertThat(r.control().qos()).isEqualTo("high");
    assertThat(r.resources().gpusPerNode()).isEqualTo(4);
    assertThat(r.resources().gpuType()).isEqualTo("h100");
    assertThat(r.control().array().taskIds()).hasSize(8);
    assertThat(r.control().array().maxRunning()).isEqualTo(2);
    assertThat(r.jobName()).isEqualTo("sweep");
    assertThat(r.resources().memPerNodeMb()).isEqualTo(65536);
    assertThat(r.placement().switches()).isEqualTo(1);
    assertThat(r.placement().switchesWaitMinutes()).isEqualTo(10);
    assertThat(parse(directives(), Map.of("SBATCH_GPUS", "8")).request().resources().gpus()).isEqualTo(8);
  }

  @Test
  void flagsAreSetByTheirPresenceAndAnEmptyExclusiveIsPlainExclusive() {
    assertThat(parse(directives("--no-requeue"), Map.of("SBATCH_REQUEUE", "0")).request().control().requeue())
        .isTrue();
    assertThat(parse(directives(), Map.of("SBATCH_EXCLUSIVE", "")).request().resources().exclusive())
        .isEqualTo(Exclusive.NODE);
    assertThat(parse(directives(), Map.of("SBATCH_EXCLUSIVE", "user")).request().resources().exclusive())
        .isEqualTo(Exclusive.USER);
  }

  @Test
  void aBadValueNamesTheVariable() {
    SbatchException e = catchThrowableOfType(() -> parse(directives(), Map.of("SBATCH_TIMELIMIT", "soon")),
        SbatchException.class);
    assertThat(e.where()).isEqualTo("SBATCH_TIMELIMIT");
    assertThat(e.getMessage()).startsWith("SBATCH_TIMELIMIT: --time=soon: ");
  }

  @Test
  void aMemoryVariableReplacesTheScriptsAndTheCommandLineReplacesIt() {
    JobRequest r = parse(directives("--mem-per-cpu=2G"), Map.of("SBATCH_MEM_PER_NODE", "64G")).request();
    assertThat(r.resources().memPerNodeMb()).isEqualTo(65536);
    assertThat(r.resources().memPerCpuMb()).isNull();
    r = parse(directives(), Map.of("SBATCH_MEM_PER_NODE", "64G"), "--mem-per-gpu=80G").request();
    assertThat(r.resources().memPerGpuMb()).isEqualTo(81920);
    assertThat(r.resources().memPerNodeMb()).isNull();
    SbatchException both = catchThrowableOfType(() -> parse(directives(),
        Map.of("SBATCH_MEM_PER_NODE", "64G", "SBATCH_MEM_PER_CPU", "2G")), SbatchException.class);
    assertThat(both.getMessage()).contains("mutually exclusive");
  }

  @Test
  void whatCannotApplyIsWarnedNamingTheVariableAndOtherVariablesAreIgnored() {
    SbatchParser.Result r = parse(directives(), Map.of("SBATCH_WCKEY", "proj", "SBATCH_NODES", "4",
        "SBATCH_WAIT", "1"));
    assertThat(r.warnings()).containsExactly(
        "SBATCH_WCKEY: --wckey=proj is accepted but not honoured: workload characterization keys are not tracked");
    assertThat(r.request().resources().nodesMin()).isNull();
    assertThat(r.request().unhonoured()).containsOnlyKeys("wckey");
  }
}
