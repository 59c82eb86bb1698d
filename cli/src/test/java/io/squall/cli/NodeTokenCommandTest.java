package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import io.squall.agent.NodeTokens;
import org.junit.jupiter.api.Test;

class NodeTokenCommandTest {
  private final Cli cli = new Cli(FakeSquall.deadUrl());

  @Test
  void printsTheNodesOwnTokenWhichTheControllerRecognises() {
    Cli.Result r = cli.stdin("cluster-secret\n").run("node-token", "gpu-7");
    assertThat(r.exit()).as(r.err()).isZero();
    String token = r.out().strip();
    assertThat(token).startsWith("squall-node:gpu-7:").doesNotContain("cluster-secret");
    assertThat(new NodeTokens("cluster-secret").nodeOf(token)).contains("gpu-7");
    assertThat(new NodeTokens("another-secret").nodeOf(token)).isEmpty();
  }

  @Test
  void refusesNoSecretAndNamesThatAreNotOneNode() {
    assertThat(cli.stdin("").run("node-token", "gpu-7").err()).contains("nothing on standard input");
    for (String[] args : new String[][] {{}, {"gpu-7", "gpu-8"}, {"gpu:7"}, {"--secret"}, {"a b"}}) {
      Cli.Result r = cli.stdin("cluster-secret").run(prepend("node-token", args));
      assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(r.out()).isEmpty();
      assertThat(r.err()).contains("give one node name");
    }
  }

  private static String[] prepend(String first, String[] rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }
}
