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
  void anUnknownTool() {
    assertThat(run(Map.of(), "sbatch")).isEqualTo(2);
  }
}
