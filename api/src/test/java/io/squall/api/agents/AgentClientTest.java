package io.squall.api.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micronaut.json.JsonMapper;
import io.squall.api.config.AwsProviderConfig;
import io.squall.api.config.GcpProviderConfig;
import io.squall.api.config.LocalProviderConfig;
import io.squall.api.config.SquallConfig;
import io.squall.api.fleet.Providers;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A launch whose answer never came may have started the job: the caller must not start it
 * elsewhere. One that nothing listened for, or that the agent refused, did not.
 */
class AgentClientTest {
  private final AgentClient client = new AgentClient(JsonMapper.createDefault(), credentials(), null);

  /** Agents started by hand (provider none): the controller shows them the cluster's token. */
  private static AgentCredentials credentials() {
    SquallConfig config = new SquallConfig();
    config.setProvider("none");
    return new AgentCredentials(config, new Providers(config, new LocalProviderConfig(), new AwsProviderConfig(),
        new GcpProviderConfig()));
  }

  @Test
  void aLaunchTheAgentReadThenDroppedMayHaveArrived() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> {
        try (Socket s = server.accept()) {
          InputStream in = s.getInputStream();
          byte[] buf = new byte[4096];
          int n = in.read(buf); // the request's head arrives; the agent dies before it answers
          return new String(buf, 0, Math.max(0, n), StandardCharsets.ISO_8859_1);
        } catch (Exception e) {
          return e.toString();
        }
      });
      AgentClient.AgentUnreachable e = catchThrowableOfType(() -> client.launch("node-1",
          "http://127.0.0.1:" + server.getLocalPort(), Map.of("job", "1")), AgentClient.AgentUnreachable.class);
      assertThat(received.get()).startsWith("POST /jobs");
      assertThat(e.mayHaveArrived()).isTrue();
      assertThat(e).hasMessageContaining("did not answer");
    }
  }

  @Test
  void aLaunchNothingListenedForDidNotArrive() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    AgentClient.AgentUnreachable e = catchThrowableOfType(() -> client.launch("node-1", "http://127.0.0.1:" + port,
        Map.of("job", "1")), AgentClient.AgentUnreachable.class);
    assertThat(e.mayHaveArrived()).isFalse();
    // The JDK gives a refused connection no message: the log must say what happened, not "null".
    assertThat(e).hasMessageEndingWith("unreachable: ConnectException");
  }
}
