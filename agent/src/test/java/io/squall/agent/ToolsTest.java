package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tools run in this JVM, for what needs no agent. */
class ToolsTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Map<String, String> env, String... args) {
    return Tools.run(List.of(args), env, "/tmp", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void scontrolShowHostnamesExpandsTheJobsNodelistByDefault() {
    assertThat(run(Map.of("SLURM_JOB_NODELIST", "gpu[001-003],login"), "scontrol", "show", "hostnames")).isZero();
    assertThat(out()).isEqualTo("gpu001\ngpu002\ngpu003\nlogin\n");
  }

  @Test
  void scontrolShowHostnamesOfAGivenList() {
    assertThat(run(Map.of(), "scontrol", "show", "hostnames", "n[9-11]")).isZero();
    assertThat(out()).isEqualTo("n9\nn10\nn11\n");
  }

  @Test
  void scontrolRefusesEverythingElse() {
    assertThat(run(Map.of(), "scontrol", "show", "job", "42")).isEqualTo(1);
    assertThat(err()).isEqualTo("scontrol: error: only 'scontrol show hostnames' is available inside a job here;"
        + " use bin/scontrol\n");
  }

  @Test
  void scontrolReportsABadListOrNone() {
    assertThat(run(Map.of(), "scontrol", "show", "hostnames")).isEqualTo(1);
    assertThat(err()).contains("SLURM_JOB_NODELIST is not set");
    assertThat(run(Map.of(), "scontrol", "show", "hostnames", "n[1-")).isEqualTo(1);
    assertThat(err()).contains("scontrol: error: invalid hostlist 'n[1-'");
  }

  @Test
  void srunOutsideAJobSaysSo() {
    assertThat(run(Map.of("PATH", "/usr/bin"), "srun", "hostname")).isEqualTo(1);
    assertThat(err()).startsWith("srun: error: not inside a job: SLURM_JOB_ID is not set.");
  }

  @Test
  void srunWithoutACommand() {
    assertThat(run(Map.of(), "srun", "-n", "2")).isEqualTo(1);
    assertThat(err()).isEqualTo("srun: error: no command given to execute\n");
  }

  @Test
  void srunInAJobNotStartedByAnAgent() {
    assertThat(run(Map.of("SLURM_JOB_ID", "4", "SLURM_JOB_NODELIST", "n1"), "srun", "true")).isEqualTo(1);
    assertThat(err()).contains("SQUALL_JOB_CREDENTIAL is not set");
  }

  @Test
  void squallOffersOnlyCheckpointRegisterInsideAJob() {
    for (List<String> wrong : List.of(List.of("squall"), List.of("squall", "queue"),
        List.of("squall", "checkpoint", "register", "c"), List.of("squall", "checkpoint", "register", "--step", "3"),
        List.of("squall", "checkpoint", "register", "c", "--step"),
        List.of("squall", "checkpoint", "register", "c", "--step", "-1"),
        List.of("squall", "checkpoint", "register", "c", "--step=1.5"),
        List.of("squall", "checkpoint", "register", "c", "--step=99999999999999999999"),
        List.of("squall", "checkpoint", "register", "c", "--step=1", "--step=2"),
        List.of("squall", "checkpoint", "register", "c", "d", "--step=1"),
        List.of("squall", "checkpoint", "register", "c", "--force", "--step=1"))) {
      err.reset();
      assertThat(run(Map.of(), wrong.toArray(new String[0]))).as(wrong.toString()).isEqualTo(2);
      assertThat(err()).as(wrong.toString()).startsWith("squall: error: ")
          .endsWith("\nusage: inside a job, squall offers only: squall checkpoint register PATH --step N;"
              + " use the squall CLI outside jobs\n");
    }
    err.reset();
    run(Map.of(), "squall", "checkpoint", "register", "c", "--step", "x");
    assertThat(err()).startsWith("squall: error: --step needs a whole number, 0 or more, not 'x'\n");
  }

  @Test
  void squallReadsPathAndStepInEitherOrder() throws Exception {
    assertThat(SquallCommand.parse(List.of("checkpoint", "register", "--step", "12", "sub/../ck"), "/work/j"))
        .isEqualTo(new SquallCommand.Registration(12, "/work/j/ck"));
    assertThat(SquallCommand.parse(List.of("checkpoint", "register", "/abs/ck", "--step=0"), "/work/j"))
        .isEqualTo(new SquallCommand.Registration(0, "/abs/ck"));
    assertThat(SquallCommand.parse(List.of("checkpoint", "register", "s3://b/ck", "--step=5"), "/work/j"))
        .isEqualTo(new SquallCommand.Registration(5, "s3://b/ck"));
  }

  @Test
  void squallOutsideAJobOrWithoutItsAgent() {
    assertThat(run(Map.of(), "squall", "checkpoint", "register", "c", "--step", "1")).isEqualTo(1);
    assertThat(err()).isEqualTo("squall: checkpoint not registered: not inside a job: SQUALL_JOB_KEY is not set;"
        + " use the squall CLI outside jobs\n");
    err.reset();
    Map<String, String> env = Map.of("SQUALL_JOB_KEY", "5", "SLURMD_NODENAME", "n1",
        "SQUALL_AGENTS", "n1=http://127.0.0.1:1", "SQUALL_JOB_CREDENTIAL", "c");
    assertThat(run(env, "squall", "checkpoint", "register", "c", "--step", "1")).isEqualTo(1);
    assertThat(err()).startsWith("squall: checkpoint not registered: cannot reach this node's agent at"
        + " http://127.0.0.1:1: ");
  }

  @Test
  void anUnknownTool() {
    assertThat(run(Map.of(), "sbatch")).isEqualTo(2);
  }
}
