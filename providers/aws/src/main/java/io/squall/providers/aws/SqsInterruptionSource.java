package io.squall.providers.aws;

import io.squall.core.spot.Interruption;
import io.squall.core.spot.InterruptionSource;
import io.squall.spot.events.Ec2Events;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * EC2 interruption events from the SQS queue an EventBridge rule feeds (rules on {@code aws.ec2}
 * {@value Ec2Events#SPOT_INTERRUPTION_WARNING}, {@value Ec2Events#REBALANCE_RECOMMENDATION} and
 * {@value Ec2Events#STATE_CHANGE}, target the queue). EventBridge puts each event's JSON as the
 * message body, unwrapped; {@link Ec2Events} reads it.
 *
 * <p>One {@link #poll} is one {@code ReceiveMessage} (long poll up to the wait time, at most
 * {@value #MAX_MESSAGES} messages) and one {@code DeleteMessageBatch} of every message it got:
 * interruptions, events that are no interruption, and bodies that do not parse (logged; the same
 * body would fail the same way forever, so keeping it would only redeliver it). A message is
 * deleted only after it was read, so a crash between receive and delete loses nothing: SQS
 * delivers it again after its visibility timeout. SQS delivers at least once, and a failed delete
 * redelivers too, so the same event may come back as an equal {@link Interruption}: the consumer
 * treats the same instance and kind as one interruption (the {@link InterruptionSource} contract).
 *
 * <p>The SDK does not retry (as in {@link AwsProvider}): the caller polls again anyway. Used from
 * one thread, as the SPI says; the SDK client itself is thread safe.
 */
public final class SqsInterruptionSource implements InterruptionSource {
  /** How long one poll waits for a message when the queue is empty, unless configured. */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(1);

  /** SQS's limit per {@code ReceiveMessage} (and per {@code DeleteMessageBatch}). */
  static final int MAX_MESSAGES = 10;

  /** SQS's limit on {@code WaitTimeSeconds}. */
  static final Duration MAX_WAIT = Duration.ofSeconds(20);

  private static final Logger LOG = LoggerFactory.getLogger(SqsInterruptionSource.class);

  private final String queueUrl;
  private final SqsClient sqs;
  private final int waitSeconds;
  private final String name;
  private boolean closed;

  /** A source with the SDK's default credential chain, waiting {@link #DEFAULT_WAIT} per poll (the controller's). */
  public static SqsInterruptionSource withDefaultCredentials(String queueUrl, String region, URI endpoint) {
    return new SqsInterruptionSource(queueUrl, region, endpoint, null);
  }

  /**
   * A source on its own SQS client, waiting {@link #DEFAULT_WAIT} per poll.
   *
   * @param queueUrl the queue's URL, e.g. {@code https://sqs.us-east-1.amazonaws.com/123456789012/squall-events}
   * @param region the queue's AWS region, e.g. {@code us-east-1}
   * @param endpoint an endpoint override (ElasticMQ, LocalStack); null for the region's endpoint
   * @param credentials the credentials; null for the SDK's {@link DefaultCredentialsProvider} chain
   */
  public SqsInterruptionSource(String queueUrl, String region, URI endpoint, AwsCredentialsProvider credentials) {
    this(queueUrl, region, endpoint, credentials, DEFAULT_WAIT);
  }

  /**
   * As {@link #SqsInterruptionSource(String, String, URI, AwsCredentialsProvider)}, waiting
   * {@code wait} per poll for a message to arrive (SQS long polling).
   *
   * @param wait whole seconds from 0 (return at once) to 20 (SQS's limit)
   */
  public SqsInterruptionSource(String queueUrl, String region, URI endpoint, AwsCredentialsProvider credentials,
      Duration wait) {
    // Arguments are checked before the client is built, so a bad one leaks no client.
    this(Objects.requireNonNull(queueUrl, "queueUrl"), waitSeconds(wait), client(region, endpoint, credentials));
  }

  /**
   * A source on a client the caller built; {@link #close()} closes it. The client should not
   * retry on its own (see {@link #client}).
   */
  public SqsInterruptionSource(String queueUrl, SqsClient sqs, Duration wait) {
    this(queueUrl, waitSeconds(wait), sqs);
  }

  private SqsInterruptionSource(String queueUrl, int waitSeconds, SqsClient sqs) {
    this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
    this.sqs = Objects.requireNonNull(sqs, "sqs");
    this.waitSeconds = waitSeconds;
    this.name = "sqs:" + queueName(queueUrl);
  }

  /**
   * The SQS client for {@code region}, {@code endpoint} (null for the region's) and
   * {@code credentials} (null for the SDK's default chain), with the SDK's own retries off.
   */
  public static SqsClient client(String region, URI endpoint, AwsCredentialsProvider credentials) {
    return AwsClients.build(SqsClient.builder(), region, endpoint, credentials);
  }

  /** {@code sqs:} and the queue's name (the last part of its URL). */
  @Override
  public String name() {
    return name;
  }

  /**
   * The interruptions among the messages that arrive within the wait time, oldest event first;
   * every message received is deleted, whatever it said.
   *
   * @throws UncheckedIOException when SQS cannot be reached or refuses the receive (no such queue,
   *     no permission): nothing was received then, and the caller may poll again. A failed delete
   *     does not throw: the interruptions are returned and the messages come back later
   * @throws IllegalStateException after {@link #close()}
   */
  @Override
  public List<Interruption> poll() {
    if (closed) {
      throw new IllegalStateException(name + ": closed");
    }
    List<Message> messages;
    try {
      messages = sqs.receiveMessage(r -> r.queueUrl(queueUrl)
          .maxNumberOfMessages(MAX_MESSAGES)
          .waitTimeSeconds(waitSeconds)).messages();
    } catch (SdkException e) {
      throw new UncheckedIOException(new IOException(name + ": ReceiveMessage failed: " + e.getMessage(), e));
    }
    if (messages.isEmpty()) {
      return List.of();
    }
    List<Interruption> interruptions = new ArrayList<>();
    for (Message m : messages) {
      read(m).ifPresent(interruptions::add);
    }
    delete(messages);
    // SQS (standard queues) does not keep order; the event's own time does. The sort is stable.
    interruptions.sort(Comparator.comparing(Interruption::noticedAt));
    return List.copyOf(interruptions);
  }

  private Optional<Interruption> read(Message m) {
    try {
      return Ec2Events.parse(m.body());
    } catch (IllegalArgumentException e) {
      LOG.warn("{}: deleting message {}: not an EC2 event, and it never will be: {}", name, m.messageId(),
          e.getMessage());
      return Optional.empty();
    }
  }

  private void delete(List<Message> messages) {
    List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>(messages.size());
    for (int i = 0; i < messages.size(); i++) {
      // Batch entry ids only need to be unique within the batch; the index is.
      entries.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(i))
          .receiptHandle(messages.get(i).receiptHandle()).build());
    }
    try {
      DeleteMessageBatchResponse response = sqs.deleteMessageBatch(r -> r.queueUrl(queueUrl).entries(entries));
      for (BatchResultErrorEntry failed : response.failed()) {
        LOG.warn("{}: could not delete message {} ({} {}); SQS will deliver it again", name,
            messages.get(Integer.parseInt(failed.id())).messageId(), failed.code(), failed.message());
      }
    } catch (SdkException e) {
      // The interruptions are read: returning them matters more than the delete. The messages
      // come back after their visibility timeout, as duplicates the consumer already dedups.
      LOG.warn("{}: DeleteMessageBatch of {} messages failed; SQS will deliver them again: {}", name,
          messages.size(), e.getMessage());
    }
  }

  /** Closes the SQS client; idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      sqs.close();
    }
  }

  private static int waitSeconds(Duration wait) {
    Objects.requireNonNull(wait, "wait");
    if (wait.isNegative() || wait.compareTo(MAX_WAIT) > 0 || wait.getNano() != 0) {
      throw new IllegalArgumentException("sqs: wait time must be whole seconds from 0 to " + MAX_WAIT.toSeconds()
          + " (SQS's long-poll limit), got " + wait.toMillis() + " ms");
    }
    return (int) wait.toSeconds();
  }

  private static String queueName(String queueUrl) {
    String trimmed = queueUrl.endsWith("/") ? queueUrl.substring(0, queueUrl.length() - 1) : queueUrl;
    return trimmed.substring(trimmed.lastIndexOf('/') + 1);
  }
}
