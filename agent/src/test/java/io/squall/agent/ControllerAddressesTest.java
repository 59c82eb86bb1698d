package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Following the leader among several controllers, against real HTTP servers on loopback. */
class ControllerAddressesTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<HttpServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  @Test
  void aStandbysPointerLeadsToTheLeaderWhoIsRememberedForTheNextCall() throws Exception {
    Fake leader = leader(200);
    Fake standby = standby(leader.url());
    ControllerAddresses addresses = ControllerAddresses.parse(standby.url() + "," + leader.url() + "/");
    assertThat(get(addresses).statusCode()).isEqualTo(200);
    assertThat(addresses.current()).isEqualTo(URI.create(leader.url()));
    assertThat(get(addresses).statusCode()).isEqualTo(200);
    assertThat(standby.hits()).as("the second call goes straight to the leader").isEqualTo(1);
    assertThat(leader.hits()).isEqualTo(2);
  }

  @Test
  void aDeadControllerIsPassedOver() throws Exception {
    Fake leader = leader(200);
    ControllerAddresses addresses = ControllerAddresses.parse("http://127.0.0.1:" + closedPort() + "," + leader.url());
    assertThat(get(addresses).statusCode()).isEqualTo(200);
    assertThat(addresses.current()).isEqualTo(URI.create(leader.url()));
  }

  @Test
  void theLeadersOwn503IsItsAnswerNotAReasonToAskAStandby() throws Exception {
    Fake leader = leader(503);
    Fake standby = standby(leader.url());
    ControllerAddresses addresses = ControllerAddresses.parse(leader.url() + "," + standby.url());
    assertThat(get(addresses).statusCode()).isEqualTo(503);
    assertThat(standby.hits()).isZero();
  }

  @Test
  void whenEveryControllerStandsByTheLastStandbysAnswerIsReturned() throws Exception {
    Fake one = standby(null);
    Fake two = standby(null);
    HttpResponse<String> r = get(ControllerAddresses.parse(one.url() + "," + two.url()));
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.headers().firstValue(ControllerAddresses.ROLE_HEADER)).hasValue("standby");
    assertThat(one.hits() + two.hits()).isLessThanOrEqualTo(3);
  }

  @Test
  void aPointerToAnAddressNotGivenIsNotFollowed() throws Exception {
    Fake elsewhere = leader(200);
    Fake leader = leader(200);
    Fake standby = standby(elsewhere.url());
    ControllerAddresses addresses = ControllerAddresses.parse(standby.url() + "," + leader.url());
    assertThat(get(addresses).statusCode()).isEqualTo(200);
    assertThat(elsewhere.hits()).as("the token goes to the given addresses only").isZero();
    assertThat(leader.hits()).isEqualTo(1);
  }

  @Test
  void connectionFailuresEverywhereAreThrown() throws Exception {
    ControllerAddresses addresses = ControllerAddresses.parse("http://127.0.0.1:" + closedPort()
        + ",http://127.0.0.1:" + closedPort());
    assertThatThrownBy(() -> get(addresses)).isInstanceOf(IOException.class);
  }

  @Test
  void aBadAddressIsNamed() {
    assertThatThrownBy(() -> ControllerAddresses.parse("http://a:1,ftp://b"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'ftp://b'");
    assertThatThrownBy(() -> ControllerAddresses.parse("http://a:1,"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("''");
  }

  private HttpResponse<String> get(ControllerAddresses addresses) throws IOException, InterruptedException {
    return addresses.send(base -> http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs")).build(),
        HttpResponse.BodyHandlers.ofString()));
  }

  private record Fake(String url, AtomicInteger counter) {
    int hits() {
      return counter.get();
    }
  }

  private Fake leader(int status) throws IOException {
    return serve(status, null, null);
  }

  private Fake standby(String leader) throws IOException {
    return serve(503, "standby", leader);
  }

  private Fake serve(int status, String role, String leader) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicInteger hits = new AtomicInteger();
    server.createContext("/", exchange -> {
      hits.incrementAndGet();
      if (role != null) {
        exchange.getResponseHeaders().set(ControllerAddresses.ROLE_HEADER, role);
      }
      if (leader != null) {
        exchange.getResponseHeaders().set(ControllerAddresses.LEADER_HEADER, leader);
      }
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
    });
    server.start();
    servers.add(server);
    return new Fake("http://127.0.0.1:" + server.getAddress().getPort(), hits);
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
