package io.squall.api.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.agent.ControllerAddresses;
import io.squall.api.Poll;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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

  @Test
  void closeEndsTheConnectionItIsAnsweringAndLeavesThePortFree() throws Exception {
    int port = freePort();
    StandbyServer standby = StandbyServer.start("127.0.0.1", port);
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
      client.setSoTimeout(5_000);
      // A request whose head has not all arrived when the takeover begins.
      client.getOutputStream().write("POST /v1/jobs HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
      client.getOutputStream().flush();
      Poll.until("the standby to take the connection", Duration.ofSeconds(10), standby::answering);
      standby.close();
      // Closed, not left open until the client's own timeout (a SocketTimeoutException here).
      assertThat(readAll(client)).isEmpty();
    }
    try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      assertThat(again.getLocalPort()).as("the leader's server can bind the port").isEqualTo(port);
    }
  }

  @Test
  void eachConnectionGetsOneAnswerAndIsClosedAndAnythingElseIs400() throws Exception {
    int port = freePort();
    try (StandbyServer standby = StandbyServer.start("127.0.0.1", port)) {
      standby.leader(new ControllerLease.Holder(3, "http://10.0.1.6:6820", true));
      String answer = exchange(port, "GET http://127.0.0.1:" + port + "/ha?x=1 HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(answer).startsWith("HTTP/1.1 200 OK\r\n").contains("Connection: close\r\n")
          .endsWith("{\"status\":\"UP\",\"role\":\"standby\",\"leader\":\"http://10.0.1.6:6820\",\"term\":3}");
      assertThat(exchange(port, "PUT /v1/jobs/1 HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd"))
          .startsWith("HTTP/1.1 503 Service Unavailable\r\n").contains("X-Squall-Leader: http://10.0.1.6:6820\r\n");
      assertThat(exchange(port, "hello\r\n\r\n")).startsWith("HTTP/1.1 400 Bad Request\r\n");
    }
  }

  private static String exchange(int port, String request) throws Exception {
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
      client.setSoTimeout(5_000);
      client.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      client.getOutputStream().flush();
      return readAll(client);
    }
  }

  private static String readAll(Socket client) throws Exception {
    try {
      return new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.net.SocketException reset) {
      return "";
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private HttpResponse<String> post(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
