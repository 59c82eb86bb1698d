package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import org.junit.jupiter.api.Test;

class MainTest {
  private final Cli cli = new Cli(FakeSquall.deadUrl());

  @Test
  void usageNamesEveryVerb() {
    Cli.Result r = cli.run("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("sbatch [OPTIONS] SCRIPT", "sbatch --parse-only", "squeue", "scancel", "sinfo", "sacct",
        "scontrol", "sshare", "salloc [OPTIONS]", "srun [OPTIONS]", "bench scheduler", "bench elastic", "bench interruptions", "SQUALL_URL", "SQUALL_TOKEN");
  }

  @Test
  void unknownVerbIsRefused() {
    Cli.Result r = cli.run("sattach", "42.0");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("squall: unknown command 'sattach'");
  }

  @Test
  void everyVerbHasHelp() {
    for (String verb : new String[] {"squeue", "scancel", "sinfo", "sacct", "scontrol", "sshare", "salloc", "srun"}) {
      Cli.Result r = cli.run(verb, "--help");
      assertThat(r.exit()).as(verb).isZero();
      assertThat(r.out()).as(verb).startsWith("Usage: " + verb);
    }
  }
}
