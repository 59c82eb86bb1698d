package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import org.junit.jupiter.api.Test;

class BenchCommandTest {
  private final Cli cli = new Cli(FakeSquall.deadUrl());

  @Test
  void valuesMustFitWhatTheBenchmarksRead() {
    Cli.Result r = cli.run("bench", "scheduler", "--nodes", "3000000000");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench scheduler: --nodes needs a positive whole number, not '3000000000'\n");
    r = cli.run("bench", "api", "--clients", "0");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench api: --clients needs a positive whole number, not '0'\n");
    r = cli.run("bench", "scheduler", "--seed", "1.5");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench scheduler: --seed needs a whole number, not '1.5'\n");
  }

  @Test
  void anyWholeSeedRuns() {
    Cli.Result r = cli.run("bench", "scheduler", "--nodes", "64", "--pending", "200", "--cycles", "1", "--seed",
        "-9000000000");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("\"nodes\":64", "\"pending\":200", "\"cycles\":1");
  }

  @Test
  void smallJobsBenchReplaysItsStretchOfTheTraceAndPrintsTheWaits() {
    Cli.Result r = cli.run("bench", "small-jobs");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("695 single-GPU, 105 gangs: 66 of 2 nodes, 38 of 4", "\"jobs\":800,\"completed\":800",
        "\"wait_1_gpu_mean_s\":", "\"makespan_s\":");
  }

  @Test
  void apiBenchUsesTheConfiguredServiceAndNeedsAToken() {
    Cli.Result r = cli.env("SQUALL_TOKEN", null).run("bench", "api", "--jobs", "1");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("squall bench api: no token configured: set SQUALL_TOKEN, or put 'token = ...' in "
        + "/nonexistent-home/.config/squall/config\n");
    r = cli.env("SQUALL_TOKEN", "t").run("bench", "api", "--jobs", "1", "--clients", "1");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("squall bench api: cannot reach the Squall service at http://127.0.0.1:");
  }
}
