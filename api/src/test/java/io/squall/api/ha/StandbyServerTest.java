package io.squall.api.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.agent.ControllerAddresses;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** What a standby answers while another controller leads, and while none does. */
class StandbyServerTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void healthSaysStandbyAndEverythingElseIs503PointingAtTheLeader() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    try (StandbyServer standby = StandbyServer.start("127.0.0.1", port)) {
      String base = "http://127.0.0.1:" + port;
      HttpResponse<String> none = post(base + "/v1/jobs");
      assertThat(none.statusCode()).isEqualTo(503);
      assertThat(none.headers().firstValue(ControllerAddresses.ROLE_HEADER)).hasValue("standby");
      assertThat(none.headers().firstValue(ControllerAddresses.LEADER_HEADER)).isEmpty();
      assertThat(none.body()).contains("no controller leads right now");

      standby.leader(new ControllerLease.Holder(7, "http://10.0.1.5:6820", true));
      HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).isEqualTo(
          "{\"status\":\"UP\",\"role\":\"standby\",\"leader\":\"http://10.0.1.5:6820\",\"term\":7}");
      HttpResponse<String> write = post(base + "/v1/jobs");
      assertThat(write.statusCode()).isEqualTo(503);
      assertThat(write.headers().firstValue(ControllerAddresses.LEADER_HEADER)).hasValue("http://10.0.1.5:6820");
      assertThat(write.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(write.body()).contains("\"leader\":\"http://10.0.1.5:6820\"");

      standby.leader(new ControllerLease.Holder(7, "http://10.0.1.5:6820", false));
      assertThat(post(base + "/v1/jobs").headers().firstValue(ControllerAddresses.LEADER_HEADER))
          .as("an expired lease names no leader").isEmpty();
    }
  }

  private HttpResponse<String> post(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
