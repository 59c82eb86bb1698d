package io.squall.spot.events;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.core.spot.Interruption;
import io.squall.core.spot.Interruption.Kind;
import io.squall.core.spot.Interruption.Source;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the EC2 events EventBridge emits about an instance's end. Three {@code detail-type}s count
 * (source {@code aws.ec2}, the shapes of the EC2 User Guide):
 * <ul>
 *   <li>{@value #SPOT_INTERRUPTION_WARNING}: {@link Kind#TERMINATION}, two minutes after the event
 *       (for {@code instance-action} {@code hibernate}: at once, EC2 gives no two minutes then);</li>
 *   <li>{@value #REBALANCE_RECOMMENDATION}: {@link Kind#REBALANCE};</li>
 *   <li>{@value #STATE_CHANGE} to {@code stopping}, {@code stopped}, {@code shutting-down} or
 *       {@code terminated}: {@link Kind#GONE}. Other states ({@code pending}, {@code running})
 *       are no interruption.</li>
 * </ul>
 * Every other event is no interruption either: an EventBridge rule may route more to the queue
 * than we care about. Thread safe: the parser holds no state besides Jackson's (thread-safe)
 * mapper.
 */
public final class Ec2Events {
  public static final String SPOT_INTERRUPTION_WARNING = "EC2 Spot Instance Interruption Warning";
  public static final String REBALANCE_RECOMMENDATION = "EC2 Instance Rebalance Recommendation";
  public static final String STATE_CHANGE = "EC2 Instance State-change Notification";

  /** The {@code source} of EC2's own events; anyone may put events with other sources on a bus. */
  public static final String EC2_SOURCE = "aws.ec2";

  /** EC2 emits the interruption warning two minutes before it stops or terminates the instance. */
  public static final Duration SPOT_WARNING = Duration.ofMinutes(2);

  /** States in which the machine no longer runs the node's work (or is about to stop at once). */
  static final Set<String> GONE_STATES = Set.of("stopping", "stopped", "shutting-down", "terminated");

  private static final ObjectMapper JSON = new ObjectMapper()
      // "{...} trailing" is a broken message, not an event with a comment after it.
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private Ec2Events() {
  }

  /**
   * The interruption one EventBridge event tells of.
   *
   * @param json the event as EventBridge delivers it (an SQS message body, for instance)
   * @return the interruption (node null, instance from {@code detail.instance-id}, noticed at the
   *     event's {@code time}), or empty when the event is not one of the interruption events
   * @throws IllegalArgumentException when the text is not a JSON object, or when an interruption
   *     event lacks its instance id or has no valid time; the message says what is wrong. The same
   *     text always fails the same way, so a caller must not retry it
   */
  public static Optional<Interruption> parse(String json) {
    JsonNode event = read(json);
    String detailType = text(event, "detail-type");
    if (!EC2_SOURCE.equals(text(event, "source")) || detailType == null) {
      return Optional.empty();
    }
    return switch (detailType) {
      case SPOT_INTERRUPTION_WARNING -> Optional.of(spotWarning(event));
      case REBALANCE_RECOMMENDATION -> Optional.of(rebalance(event));
      case STATE_CHANGE -> stateChange(event);
      default -> Optional.empty();
    };
  }

  private static Interruption spotWarning(JsonNode event) {
    String action = text(event.path("detail"), "instance-action");
    Instant time = time(event);
    // "hibernation ... begins immediately": EC2 gives no two minutes then (EC2 User Guide).
    Instant deadline = "hibernate".equals(action) ? time : time.plus(SPOT_WARNING);
    return interruption(event, Kind.TERMINATION, time, deadline,
        "instance-action " + (action == null ? "(none)" : action));
  }

  private static Interruption rebalance(JsonNode event) {
    Instant time = time(event);
    // Advice without a date. EC2 may send it together with the two-minute warning, so two
    // minutes is the earliest the machine can go: the only time the consumer can count on.
    return interruption(event, Kind.REBALANCE, time, time.plus(SPOT_WARNING), "elevated risk of interruption");
  }

  private static Optional<Interruption> stateChange(JsonNode event) {
    String state = text(event.path("detail"), "state");
    if (state == null || !GONE_STATES.contains(state)) {
      return Optional.empty();
    }
    Instant time = time(event);
    return Optional.of(interruption(event, Kind.GONE, time, time, "state " + state));
  }

  private static Interruption interruption(JsonNode event, Kind kind, Instant time, Instant deadline, String what) {
    String detailType = text(event, "detail-type");
    String instanceId = text(event.path("detail"), "instance-id");
    if (instanceId == null || instanceId.isBlank()) {
      throw new IllegalArgumentException("EC2 event '" + detailType + "' " + idOf(event)
          + "has no detail.instance-id: cannot tell which instance it is about");
    }
    String detail = detailType + ": " + what + " (event " + orUnknown(text(event, "id")) + ", "
        + orUnknown(text(event, "region")) + ")";
    return new Interruption(null, instanceId, Source.AWS_EVENTS, kind, time, deadline, detail);
  }

  private static JsonNode read(String json) {
    if (json == null || json.isBlank()) {
      throw new IllegalArgumentException("EC2 event: empty text, expected an EventBridge event (a JSON object)");
    }
    JsonNode node;
    try {
      node = JSON.readTree(json);
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw new IllegalArgumentException("EC2 event: not valid JSON" + where + ": " + e.getOriginalMessage(), e);
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("EC2 event: expected a JSON object (an EventBridge event), got "
          + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(Locale.ROOT)));
    }
    return node;
  }

  private static Instant time(JsonNode event) {
    String detailType = text(event, "detail-type");
    String time = text(event, "time");
    if (time == null) {
      throw new IllegalArgumentException("EC2 event '" + detailType + "' " + idOf(event)
          + "has no time: cannot tell when it was noticed");
    }
    try {
      return Instant.parse(time);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("EC2 event '" + detailType + "' " + idOf(event) + "has time '" + time
          + "', expected an ISO-8601 instant such as 2021-11-11T21:29:54Z", e);
    }
  }

  /** The field's text, or null when it is missing or not a string. */
  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value != null && value.isTextual() ? value.asText() : null;
  }

  private static String idOf(JsonNode event) {
    String id = text(event, "id");
    return id == null ? "" : "(id " + id + ") ";
  }

  private static String orUnknown(String s) {
    return s == null ? "?" : s;
  }
}
