package io.squall.spot.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.spot.Interruption;
import io.squall.core.spot.Interruption.Kind;
import io.squall.core.spot.Interruption.Source;
import io.squall.core.time.ManualClock;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class Ec2MetadataSourceTest {
  private static final Instant START = Instant.parse("2026-11-21T08:20:00Z");

  private FakeImds imds;
  private ManualClock clock;
  private Ec2MetadataSource source;

  @BeforeEach
  void start() throws Exception {
    imds = new FakeImds();
    clock = new ManualClock(START);
    source = new Ec2MetadataSource("gpu-1", imds.url(), clock);
  }

  @AfterEach
  void stop() {
    source.close();
    imds.close();
  }

  @Test
  void noNoticeIsNothingAndOneTokenServesManyPolls() {
    assertThat(source.poll()).isEmpty();
    assertThat(source.poll()).isEmpty();
    assertThat(source.poll()).isEmpty();

    assertThat(imds.tokenPuts()).isEqualTo(1);
    assertThat(imds.count("GET", Ec2MetadataSource.INSTANCE_ID_PATH)).isEqualTo(1);
    assertThat(imds.count("GET", Ec2MetadataSource.INSTANCE_ACTION_PATH)).isEqualTo(3);
    assertThat(source.name()).isEqualTo("aws-metadata");
  }

  @Test
  void anInterruptionNoticeIsATerminationDueAtItsTime() {
    imds.instanceAction("{\"action\": \"terminate\", \"time\": \"2026-11-21T08:22:00Z\"}");

    assertThat(source.poll()).containsExactly(new Interruption("gpu-1", FakeImds.INSTANCE_ID, Source.AWS_METADATA,
        Kind.TERMINATION, START, Instant.parse("2026-11-21T08:22:00Z"),
        "EC2 spot instance-action: terminate at 2026-11-21T08:22:00Z"));
  }

  @Test
  void stopAndHibernateTakeTheMachineToo() {
    imds.instanceAction("{\"action\": \"hibernate\", \"time\": \"2026-11-21T08:20:00Z\"}");

    List<Interruption> found = source.poll();

    assertThat(found).extracting(Interruption::kind).containsExactly(Kind.TERMINATION);
    assertThat(found.get(0).detail()).contains("hibernate");
  }

  @Test
  void aRebalanceRecommendationIsAdviceWithAGuessedDeadline() {
    imds.rebalance("{\"noticeTime\": \"2026-11-21T08:17:00Z\"}");

    assertThat(source.poll()).containsExactly(new Interruption("gpu-1", FakeImds.INSTANCE_ID, Source.AWS_METADATA,
        Kind.REBALANCE, START, Instant.parse("2026-11-21T08:19:00Z"),
        "EC2 rebalance recommendation at 2026-11-21T08:17:00Z"));
  }

  @Test
  void aNoticeTheServiceKeepsShowingIsReportedOnce() {
    imds.rebalance("{\"noticeTime\": \"2026-11-21T08:17:00Z\"}");
    assertThat(source.poll()).extracting(Interruption::kind).containsExactly(Kind.REBALANCE);
    assertThat(source.poll()).isEmpty();

    imds.instanceAction("{\"action\": \"terminate\", \"time\": \"2026-11-21T08:22:00Z\"}");
    clock.advance(Duration.ofSeconds(1));
    assertThat(source.poll()).extracting(Interruption::kind).containsExactly(Kind.TERMINATION);
    assertThat(source.poll()).isEmpty();
    assertThat(source.poll()).isEmpty();
  }

  @Test
  void aNoticeThatWentAwayAndCameBackIsReportedAgain() {
    imds.rebalance("{\"noticeTime\": \"2026-11-21T08:17:00Z\"}");
    assertThat(source.poll()).hasSize(1);
    imds.rebalance(null);
    assertThat(source.poll()).isEmpty();

    imds.rebalance("{\"noticeTime\": \"2026-11-21T09:17:00Z\"}");

    assertThat(source.poll()).extracting(Interruption::deadline).containsExactly(Instant.parse("2026-11-21T09:19:00Z"));
  }

  @Test
  void aRefusedTokenIsReplacedAndTheReadRetried() {
    assertThat(source.poll()).isEmpty();
    imds.instanceAction("{\"action\": \"stop\", \"time\": \"2026-11-21T08:22:00Z\"}");

    imds.forgetTokens();

    assertThat(source.poll()).extracting(Interruption::kind).containsExactly(Kind.TERMINATION);
    assertThat(imds.tokenPuts()).isEqualTo(2);
  }

  @Test
  void theTokenIsRenewedBeforeItExpires() {
    source.poll();
    clock.advance(Ec2MetadataSource.TOKEN_TTL.minus(Ec2MetadataSource.TOKEN_MARGIN).minusSeconds(1));
    source.poll();
    assertThat(imds.tokenPuts()).isEqualTo(1);

    clock.advance(Duration.ofSeconds(1));
    source.poll();

    assertThat(imds.tokenPuts()).isEqualTo(2);
    assertThat(imds.count("GET", Ec2MetadataSource.INSTANCE_ACTION_PATH)).isEqualTo(3);
  }

  @Test
  void aNoticeThatCannotBeReadIsSkippedAndTheRestStillReported() {
    imds.instanceAction("{\"action\": \"terminate\", \"time\": \"soon\"}");
    imds.rebalance("{\"noticeTime\": \"2026-11-21T08:17:00Z\"}");

    assertThat(source.poll()).extracting(Interruption::kind).containsExactly(Kind.REBALANCE);
    imds.instanceAction("<html>not json");
    assertThat(source.poll()).isEmpty();

    imds.instanceAction("{\"action\": \"terminate\", \"time\": \"2026-11-21T08:22:00Z\"}");
    assertThat(source.poll()).extracting(Interruption::kind).containsExactly(Kind.TERMINATION);
  }

  @Test
  void anUnreadableAnswerDoesNotMakeAReportedNoticeNew() {
    imds.instanceAction("{\"action\": \"terminate\", \"time\": \"2026-11-21T08:22:00Z\"}");
    assertThat(source.poll()).hasSize(1);
    imds.instanceAction("{}");
    assertThat(source.poll()).isEmpty();

    imds.instanceAction("{\"action\": \"terminate\", \"time\": \"2026-11-21T08:22:00Z\"}");

    assertThat(source.poll()).isEmpty();
  }

  @Test
  void aFailingServiceThrowsAndLosesNothing() {
    imds.instanceAction("{\"action\": \"terminate\", \"time\": \"2026-11-21T08:22:00Z\"}");
    assertThat(source.poll()).hasSize(1);
    imds.instanceAction(null);
    assertThat(source.poll()).isEmpty();
    imds.instanceAction("{\"action\": \"terminate\", \"time\": \"2026-11-21T08:30:00Z\"}");
    imds.rebalance("{\"noticeTime\": \"2026-11-21T08:17:00Z\"}");

    // The rebalance read fails after the notice has been read: the notice must not be spent.
    imds.failWith(500, 1, Ec2MetadataSource.REBALANCE_PATH);
    assertThatThrownBy(source::poll).isInstanceOf(UncheckedIOException.class).hasMessageContaining("HTTP 500");

    assertThat(source.poll()).extracting(Interruption::kind).containsExactly(Kind.REBALANCE, Kind.TERMINATION);
  }

  @Test
  void aRefusedTokenRequestIsAFailure() {
    imds.failWith(403, 1);

    assertThatThrownBy(source::poll).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(Ec2MetadataSource.TOKEN_PATH).hasMessageContaining("HTTP 403");
    assertThat(source.poll()).isEmpty();
  }

  @Test
  void noServiceIsAFailure() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Ec2MetadataSource nowhere = new Ec2MetadataSource("gpu-1", URI.create("http://127.0.0.1:" + port), clock);

    assertThatThrownBy(nowhere::poll).isInstanceOf(UncheckedIOException.class).hasMessageContaining("unreachable");
    nowhere.close();
    nowhere.close();
    assertThatThrownBy(nowhere::poll).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theFakeRefusesWhatImdsV2Refuses() throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    URI id = imds.url().resolve(Ec2MetadataSource.INSTANCE_ID_PATH);
    URI token = imds.url().resolve(Ec2MetadataSource.TOKEN_PATH);

    assertThat(http.send(HttpRequest.newBuilder(id).build(), HttpResponse.BodyHandlers.discarding()).statusCode())
        .isEqualTo(401);
    assertThat(http.send(HttpRequest.newBuilder(token).PUT(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(400);
    assertThat(http.send(HttpRequest.newBuilder(token).header(Ec2MetadataSource.TTL_HEADER, "21601")
        .PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding()).statusCode())
        .isEqualTo(400);
  }
}
