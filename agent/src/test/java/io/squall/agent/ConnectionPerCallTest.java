package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The agent closes each connection after its answer, so a caller's pool (the controller's JDK
 * HttpClient keeps connections for 20 min, the agent's server drops idle ones after 30 s) never
 * holds one the agent may have closed: a second launch after an answered one goes on a new
 * connection and arrives, where on the reused one it failed with "header parser received no
 * bytes" and the controller had to leave the job to the node timeout.
 */
class ConnectionPerCallTest extends OneAgentTest {
  @Test
  void aLaunchAfterAnAnsweredCallGoesOnANewConnection() throws Exception {
    try (DroppedOnReuse relay = new DroppedOnReuse(agent.address())) {
      // AgentCalls' client is configured as the controller's AgentClient: HTTP/1.1, pooled.
      AgentCalls.launch(relay.address(), AgentCalls.batch("71", "true\n", jobDir, Map.of()));
      AgentCalls.launch(relay.address(), AgentCalls.batch("72", "true\n", jobDir, Map.of()));

      assertThat(relay.dropped()).isZero();
      assertThat(relay.connections()).isEqualTo(2);
    }
  }
}
