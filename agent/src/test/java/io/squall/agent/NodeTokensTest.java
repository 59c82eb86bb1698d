package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NodeTokensTest {
  private final NodeTokens tokens = new NodeTokens("cluster-secret");

  @Test
  void aTokenNamesItsNodeAndOnlyTheSecretMakesIt() {
    String t = tokens.issue("cloud-3");
    assertThat(t).startsWith("squall-node:cloud-3:").doesNotContain("cluster-secret");
    assertThat(tokens.nodeOf(t)).contains("cloud-3");
    assertThat(tokens.issue("cloud-3")).isEqualTo(t); // derived, not stored
    assertThat(tokens.issue("cloud-4")).isNotEqualTo(t);
    // Another cluster's secret, a renamed node or a forged MAC do not pass.
    assertThat(tokens.nodeOf(new NodeTokens("other-secret").issue("cloud-3"))).isEmpty();
    assertThat(tokens.nodeOf(t.replace("cloud-3", "cloud-4"))).isEmpty();
    assertThat(tokens.nodeOf(t.substring(0, t.length() - 1) + "A")).isEmpty();
    assertThat(tokens.nodeOf("squall-node::x")).isEmpty();
    assertThat(tokens.nodeOf("squall-node:")).isEmpty();
    assertThat(tokens.nodeOf("cluster-secret")).isEmpty();
    assertThat(tokens.nodeOf(null)).isEmpty();
  }

  @Test
  void namesWithColonsStillWork() {
    assertThat(tokens.nodeOf(tokens.issue("a:b"))).contains("a:b");
  }

  @Test
  void anEmptySecretIsRefused() {
    assertThatThrownBy(() -> new NodeTokens("")).isInstanceOf(IllegalArgumentException.class);
  }
}
