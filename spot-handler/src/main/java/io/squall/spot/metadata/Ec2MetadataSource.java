package io.squall.spot.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.core.spot.Interruption;
import io.squall.core.spot.Interruption.Kind;
import io.squall.core.spot.Interruption.Source;
import io.squall.core.spot.InterruptionSource;
import io.squall.spot.events.Ec2Events;
import java.io.IOException;
import java.lang.System.Logger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Watches the EC2 instance metadata service (IMDSv2) of the node it runs on for a Spot
 * interruption notice and a rebalance recommendation.
 *
 * <p>Protocol (IMDSv2, "How Instance Metadata Service Version 2 works",
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instance-metadata-v2-how-it-works.html):
 * {@code PUT /latest/api/token} with {@code X-aws-ec2-metadata-token-ttl-seconds} (at most six
 * hours) gives a session token, sent with every read as {@code X-aws-ec2-metadata-token}; an
 * expired or unknown token is answered 401. The token is kept until shortly before it expires,
 * and fetched again at once after a 401.
 *
 * <p>Notices: {@code /latest/meta-data/spot/instance-action} is 404 until EC2 decides to stop,
 * hibernate or terminate the instance, then {@code {"action": "terminate", "time":
 * "2026-11-21T08:22:00Z"}} ("Spot Instance interruption notices",
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html:
 * two minutes ahead, none for hibernation, which begins at once).
 * {@code /latest/meta-data/events/recommendations/rebalance} is 404 until a rebalance
 * recommendation, then {@code {"noticeTime": "2026-11-21T08:17:00Z"}} ("EC2 instance rebalance
 * recommendations", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/rebalance-recommendations.html).
 *
 * <p>Each kind of notice is reported once while the service keeps showing it (see {@link
 * ReportedKinds}). A poll makes three or four requests and takes milliseconds on EC2; AWS
 * suggests checking every 5 seconds, the agent checks every second. Not thread-safe (the SPI's
 * one-thread contract).
 */
public final class Ec2MetadataSource implements InterruptionSource {
  /** The link-local address of IMDS on every EC2 instance. */
  public static final URI DEFAULT_BASE = URI.create("http://169.254.169.254");

  static final String TOKEN_PATH = "/latest/api/token";
  static final String TTL_HEADER = "X-aws-ec2-metadata-token-ttl-seconds";
  static final String TOKEN_HEADER = "X-aws-ec2-metadata-token";
  static final String INSTANCE_ID_PATH = "/latest/meta-data/instance-id";
  static final String INSTANCE_ACTION_PATH = "/latest/meta-data/spot/instance-action";
  static final String REBALANCE_PATH = "/latest/meta-data/events/recommendations/rebalance";

  /** The longest session IMDSv2 grants: one token PUT every few hours is enough. */
  static final Duration TOKEN_TTL = Duration.ofSeconds(21_600);
  /** Fetched again this long before it expires, so a token never expires between our clock and the service's. */
  static final Duration TOKEN_MARGIN = Duration.ofMinutes(5);

  private static final Logger LOG = System.getLogger(Ec2MetadataSource.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String node;
  private final InstantSource clock;
  private final MetadataHttp http;
  private final ReportedKinds reported = new ReportedKinds();
  private final UnreadableNotices unreadable = new UnreadableNotices(LOG);
  private String token;
  private Instant tokenRenewal = Instant.MIN;
  private String instanceId;
  private boolean closed;

  /**
   * @param node the Squall node this machine is, named in every notice
   * @param base the metadata service, {@link #DEFAULT_BASE} on EC2
   * @param clock when notices are noticed, and when the token is renewed
   */
  public Ec2MetadataSource(String node, URI base, InstantSource clock) {
    this.node = Objects.requireNonNull(node, "node");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.http = new MetadataHttp(Objects.requireNonNull(base, "base"));
  }

  @Override
  public String name() {
    return "aws-metadata";
  }

  /**
   * Reads both notices. The instance id is read on the first poll that reaches the service.
   *
   * @throws java.io.UncheckedIOException when the service cannot be reached or answers other
   *     than 200 or 404 (after one new token, for a 401); nothing is remembered from a poll that
   *     throws, so the next poll reports what this one would have
   * @throws IllegalStateException after {@link #close}
   */
  @Override
  public List<Interruption> poll() {
    if (closed) {
      throw new IllegalStateException(name() + " is closed");
    }
    if (instanceId == null) {
      MetadataHttp.Answer id = read(INSTANCE_ID_PATH);
      if (!id.ok() || id.body().isBlank()) {
        throw http.failure(INSTANCE_ID_PATH, id);
      }
      instanceId = id.body().strip();
    }
    MetadataHttp.Answer action = read(INSTANCE_ACTION_PATH);
    MetadataHttp.Answer rebalance = read(REBALANCE_PATH);
    Instant now = clock.instant();
    List<Interruption> found = new ArrayList<>();
    // A recommendation, when there is one, came before the notice: listed first, as the SPI wants.
    reported.apply(Kind.REBALANCE, rebalance(rebalance, now), found);
    reported.apply(Kind.TERMINATION, termination(action, now), found);
    return found;
  }

  @Override
  public void close() {
    closed = true;
  }

  private Reading termination(MetadataHttp.Answer answer, Instant now) {
    if (answer.absent()) {
      return Reading.QUIET;
    }
    try {
      JsonNode notice = JSON.readTree(answer.body());
      String action = text(notice, "action");
      Instant time = Instant.parse(text(notice, "time"));
      // stop, hibernate and terminate all take the machine (and its GPUs) from the job; an
      // action EC2 adds later is read the same way rather than ignored.
      return new Reading.Notice(new Interruption(node, instanceId, Source.AWS_METADATA, Kind.TERMINATION, now, time,
          "EC2 spot instance-action: " + action + " at " + time));
    } catch (IOException | DateTimeParseException e) {
      unreadable.skip(INSTANCE_ACTION_PATH, answer.body(), e.getMessage());
      return Reading.UNREADABLE;
    }
  }

  private Reading rebalance(MetadataHttp.Answer answer, Instant now) {
    if (answer.absent()) {
      return Reading.QUIET;
    }
    try {
      Instant noticeTime = Instant.parse(text(JSON.readTree(answer.body()), "noticeTime"));
      // A recommendation has no deadline (nothing may ever happen). A Spot interruption's own
      // notice comes SPOT_WARNING ahead, so that is the soonest the machine can go after it, and
      // it makes the controller treat the advice as urgent (as the EventBridge reading does).
      return new Reading.Notice(new Interruption(node, instanceId, Source.AWS_METADATA, Kind.REBALANCE, now,
          noticeTime.plus(Ec2Events.SPOT_WARNING), "EC2 rebalance recommendation at " + noticeTime));
    } catch (IOException | DateTimeParseException e) {
      unreadable.skip(REBALANCE_PATH, answer.body(), e.getMessage());
      return Reading.UNREADABLE;
    }
  }

  private static String text(JsonNode notice, String field) throws IOException {
    JsonNode value = notice == null ? null : notice.get(field);
    if (value == null || !value.isTextual() || value.asText().isBlank()) {
      throw new IOException("no \"" + field + "\"");
    }
    return value.asText();
  }

  /** A 200 or a 404, with a fresh token after one 401. */
  private MetadataHttp.Answer read(String path) {
    MetadataHttp.Answer answer = http.get(path, Map.of(TOKEN_HEADER, token()));
    if (answer.status() == 401) {
      // Expired early, or the service restarted and forgot it: one new session, one retry.
      token = null;
      answer = http.get(path, Map.of(TOKEN_HEADER, token()));
    }
    if (!answer.ok() && !answer.absent()) {
      throw http.failure(path, answer);
    }
    return answer;
  }

  private String token() {
    Instant now = clock.instant();
    if (token == null || !now.isBefore(tokenRenewal)) {
      MetadataHttp.Answer answer = http.put(TOKEN_PATH, Map.of(TTL_HEADER, Long.toString(TOKEN_TTL.toSeconds())));
      if (!answer.ok() || answer.body().isBlank()) {
        throw http.failure(TOKEN_PATH, answer);
      }
      token = answer.body().strip();
      tokenRenewal = now.plus(TOKEN_TTL).minus(TOKEN_MARGIN);
    }
    return token;
  }
}
