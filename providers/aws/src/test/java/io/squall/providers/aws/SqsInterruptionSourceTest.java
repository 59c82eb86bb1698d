package io.squall.providers.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.squall.core.spot.Interruption;
import io.squall.core.spot.Interruption.Kind;
import io.squall.core.spot.Interruption.Source;
import io.squall.spot.events.Ec2Events;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@link SqsInterruptionSource} against ElasticMQ, a real SQS-compatible server in this JVM on
 * 127.0.0.1, fed the EC2 User Guide's sample events (spot-handler's test resources
 * {@code io/squall/spot/events/}, see their README) as EventBridge would.
 */
class SqsInterruptionSourceTest {
  /** AWS's sample events, kept once, in spot-handler's test jar. */
  static final String EVENTS = "/io/squall/spot/events/";
  private static final String REGION = "us-east-1";
  private static final AwsCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
  private static final String INSTANCE = "i-1234567890abcdef0";
  private static final Instant TIME = Instant.parse("2021-11-11T21:29:54Z");
  private static final AtomicInteger QUEUES = new AtomicInteger();

  private static SQSRestServer server;
  private static URI endpoint;
  private static SqsClient admin;

  private String queueUrl;
  private SqsInterruptionSource source;

  @BeforeAll
  static void startElasticMq() {
    server = SQSRestServerBuilder.withInterface("127.0.0.1").withDynamicPort().start();
    int port = server.waitUntilStarted().localAddress().getPort();
    endpoint = URI.create("http://127.0.0.1:" + port);
    admin = SqsInterruptionSource.client(REGION, endpoint, CREDENTIALS);
  }

  @AfterAll
  static void stopElasticMq() {
    if (admin != null) {
      admin.close();
    }
    if (server != null) {
      server.stopAndWait();
    }
  }

  @BeforeEach
  void newQueue() {
    // A queue per test: no test sees another's messages.
    queueUrl = admin.createQueue(r -> r.queueName("squall-events-" + QUEUES.incrementAndGet())).queueUrl();
    source = new SqsInterruptionSource(queueUrl, REGION, endpoint, CREDENTIALS);
  }

  @AfterEach
  void closeSource() {
    source.close();
  }

  static String sample(String file) {
    try (InputStream in = SqsInterruptionSourceTest.class.getResourceAsStream(EVENTS + file)) {
      if (in == null) {
        throw new IllegalStateException("no test resource " + EVENTS + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String stateChange(String state) {
    return sample("instance-state-change-notification.json").replace("\"state\":\"pending\"", "\"state\":\"" + state + "\"");
  }

  private void send(String body) {
    admin.sendMessage(r -> r.queueUrl(queueUrl).messageBody(body));
  }

  /** Polls until a poll finds nothing: SQS may hand out fewer messages than it holds per receive. */
  private List<Interruption> drain() {
    List<Interruption> all = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      List<Interruption> got = source.poll();
      if (got.isEmpty() && queueDepth() == 0) {
        return all;
      }
      all.addAll(got);
    }
    throw new AssertionError("queue not drained after 10 polls: " + queueDepth() + " messages left");
  }

  /** Messages waiting plus messages received and not deleted (in flight). */
  private int queueDepth() {
    Map<QueueAttributeName, String> attributes = admin.getQueueAttributes(r -> r.queueUrl(queueUrl)
        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
    return Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
        + Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
  }

  @Test
  void eachSampleEventBecomesItsInterruptionAndIsDeleted() {
    List<String> bodies = List.of(sample("spot-instance-interruption-warning.json"),
        sample("instance-rebalance-recommendation.json"), stateChange("terminated"));
    bodies.forEach(this::send);

    List<Interruption> got = drain();

    assertThat(got)
        .extracting(Interruption::node, Interruption::instanceId, Interruption::source, Interruption::kind,
            Interruption::noticedAt, Interruption::deadline)
        .containsExactlyInAnyOrder(
            tuple(null, INSTANCE, Source.AWS_EVENTS, Kind.TERMINATION, TIME, TIME.plus(Duration.ofMinutes(2))),
            tuple(null, INSTANCE, Source.AWS_EVENTS, Kind.REBALANCE, TIME, TIME.plus(Duration.ofMinutes(2))),
            tuple(null, INSTANCE, Source.AWS_EVENTS, Kind.GONE, TIME, TIME));
    // The transport adds nothing and loses nothing: each is what the parser reads from the body.
    assertThat(got).containsExactlyInAnyOrderElementsOf(
        bodies.stream().map(b -> Ec2Events.parse(b).orElseThrow()).toList());
    assertThat(queueDepth()).isZero();
  }

  @Test
  void eventsThatAreNoInterruptionAreDeletedAndSkipped() {
    send(sample("instance-state-change-notification.json")); // pending
    send(stateChange("running"));
    send("{\"version\":\"0\",\"detail-type\":\"AWS Health Event\",\"source\":\"aws.health\",\"detail\":{}}");

    assertThat(drain()).isEmpty();
    assertThat(queueDepth()).isZero();
  }

  @Test
  void aJunkMessageIsDeletedAndSkipped() {
    send("this is not an EventBridge event");
    send("{\"detail-type\": \"EC2 Spot Instance Interruption Warning\""); // cut short
    send(sample("spot-instance-interruption-warning.json"));

    assertThat(drain()).extracting(Interruption::kind).containsExactly(Kind.TERMINATION);
    assertThat(queueDepth()).isZero();
  }

  @Test
  void aDuplicateDeliveryGivesTheSameInterruptionTwiceForTheConsumerToDedup() {
    // SQS delivers at least once; two messages with one event is what a redelivery looks like.
    String warning = sample("spot-instance-interruption-warning.json");
    send(warning);
    send(warning);

    List<Interruption> got = drain();

    assertThat(got).hasSize(2);
    assertThat(got.get(0)).isEqualTo(got.get(1));
    assertThat(queueDepth()).isZero();
  }

  @Test
  void interruptionsComeOldestFirst() {
    String later = sample("instance-rebalance-recommendation.json").replace("2021-11-11T21:29:54Z", "2021-11-11T21:30:30Z");
    send(later);
    send(sample("spot-instance-interruption-warning.json"));

    // One receive takes both (up to 10): within a poll the event's time orders, not the queue.
    List<Interruption> got = source.poll();

    assertThat(got).extracting(Interruption::kind).containsExactly(Kind.TERMINATION, Kind.REBALANCE);
  }

  @Test
  void anEmptyQueueGivesNothingAfterTheWait() {
    long start = System.nanoTime();

    assertThat(source.poll()).isEmpty();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void anUnreachableEndpointIsAnUncheckedIoException() throws IOException {
    int freePort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      freePort = socket.getLocalPort();
    }
    try (SqsInterruptionSource nowhere = new SqsInterruptionSource(queueUrl, REGION,
        URI.create("http://127.0.0.1:" + freePort), CREDENTIALS, Duration.ZERO)) {
      assertThatThrownBy(nowhere::poll)
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("sqs:" + queueName() + ": ReceiveMessage failed");
      // The caller may poll again: still unreachable, still the same exception.
      assertThatThrownBy(nowhere::poll).isInstanceOf(UncheckedIOException.class);
    }
  }

  @Test
  void aMissingQueueIsAnUncheckedIoException() {
    String missing = queueUrl.substring(0, queueUrl.lastIndexOf('/') + 1) + "no-such-queue";
    try (SqsInterruptionSource gone = new SqsInterruptionSource(missing, REGION, endpoint, CREDENTIALS, Duration.ZERO)) {
      assertThatThrownBy(gone::poll)
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("sqs:no-such-queue: ReceiveMessage failed");
    }
  }

  @Test
  void itIsNamedAfterItsQueue() {
    assertThat(source.name()).isEqualTo("sqs:" + queueName());
  }

  @Test
  void closeIsIdempotentAndEndsPolling() {
    source.close();
    source.close();

    assertThatThrownBy(source::poll).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }

  @Test
  void theWaitIsWholeSecondsUpToSqssLimit() {
    for (Duration bad : List.of(Duration.ofSeconds(21), Duration.ofSeconds(-1), Duration.ofMillis(500))) {
      assertThatThrownBy(() -> new SqsInterruptionSource(queueUrl, REGION, endpoint, CREDENTIALS, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("whole seconds from 0 to 20");
    }
  }

  private String queueName() {
    return queueUrl.substring(queueUrl.lastIndexOf('/') + 1);
  }
}
