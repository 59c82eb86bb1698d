package io.squall.spot.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.spot.Interruption;
import io.squall.core.spot.Interruption.Kind;
import io.squall.core.spot.Interruption.Source;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sample events are the EC2 User Guide's; see README.md beside them for the pages. */
class Ec2EventsTest {
  private static final String INSTANCE = "i-1234567890abcdef0";
  private static final Instant TIME = Instant.parse("2021-11-11T21:29:54Z");

  static String sample(String file) {
    try (InputStream in = Ec2EventsTest.class.getResourceAsStream(file)) {
      if (in == null) {
        throw new IllegalStateException("no test resource " + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String spotWarning(String action) {
    return sample("spot-instance-interruption-warning.json")
        .replace("\"instance-action\": \"terminate\"", "\"instance-action\": \"" + action + "\"");
  }

  static String stateChange(String state) {
    return sample("instance-state-change-notification.json")
        .replace("\"state\":\"pending\"", "\"state\":\"" + state + "\"");
  }

  @Test
  void spotInterruptionWarningIsATerminationTwoMinutesAfterTheEvent() {
    Interruption i = Ec2Events.parse(sample("spot-instance-interruption-warning.json")).orElseThrow();

    assertThat(i.node()).isNull();
    assertThat(i.instanceId()).isEqualTo(INSTANCE);
    assertThat(i.source()).isEqualTo(Source.AWS_EVENTS);
    assertThat(i.kind()).isEqualTo(Kind.TERMINATION);
    assertThat(i.noticedAt()).isEqualTo(TIME);
    assertThat(i.deadline()).isEqualTo(Instant.parse("2021-11-11T21:31:54Z"));
    assertThat(i.detail()).isEqualTo("EC2 Spot Instance Interruption Warning: instance-action terminate"
        + " (event 12345678-1234-1234-1234-123456789012, us-east-2)");
  }

  @Test
  void aStopWarningIsATerminationToo() {
    Interruption i = Ec2Events.parse(spotWarning("stop")).orElseThrow();

    assertThat(i.kind()).isEqualTo(Kind.TERMINATION);
    assertThat(i.deadline()).isEqualTo(TIME.plus(Ec2Events.SPOT_WARNING));
    assertThat(i.detail()).contains("instance-action stop");
  }

  @Test
  void aHibernateWarningHasNoTwoMinutes() {
    Interruption i = Ec2Events.parse(spotWarning("hibernate")).orElseThrow();

    assertThat(i.kind()).isEqualTo(Kind.TERMINATION);
    assertThat(i.deadline()).isEqualTo(TIME);
  }

  @Test
  void rebalanceRecommendationIsAdvice() {
    Interruption i = Ec2Events.parse(sample("instance-rebalance-recommendation.json")).orElseThrow();

    assertThat(i.instanceId()).isEqualTo(INSTANCE);
    assertThat(i.source()).isEqualTo(Source.AWS_EVENTS);
    assertThat(i.kind()).isEqualTo(Kind.REBALANCE);
    assertThat(i.noticedAt()).isEqualTo(TIME);
    assertThat(i.deadline()).isEqualTo(TIME.plus(Ec2Events.SPOT_WARNING));
    assertThat(i.detail()).startsWith("EC2 Instance Rebalance Recommendation: ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"shutting-down", "terminated", "stopping", "stopped"})
  void aStateChangeAwayFromRunningMeansGone(String state) {
    Interruption i = Ec2Events.parse(stateChange(state)).orElseThrow();

    assertThat(i.instanceId()).isEqualTo(INSTANCE);
    assertThat(i.kind()).isEqualTo(Kind.GONE);
    assertThat(i.noticedAt()).isEqualTo(TIME);
    assertThat(i.deadline()).isEqualTo(TIME);
    assertThat(i.detail()).isEqualTo("EC2 Instance State-change Notification: state " + state
        + " (event 7bf73129-1428-4cd3-a780-95db273d1602, us-east-1)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"pending", "running", "some-future-state"})
  void otherStatesAreNoInterruption(String state) {
    assertThat(Ec2Events.parse(stateChange(state))).isEmpty();
  }

  @Test
  void theDocumentedStateChangeSampleIsPendingAndSoNoInterruption() {
    assertThat(Ec2Events.parse(sample("instance-state-change-notification.json"))).isEmpty();
  }

  @Test
  void otherEventsAreNoInterruption() {
    String scheduledChange = "{\"version\":\"0\",\"id\":\"1\",\"detail-type\":\"AWS Health Event\","
        + "\"source\":\"aws.health\",\"time\":\"2021-11-11T21:29:54Z\",\"detail\":{}}";
    String otherEc2Event = sample("instance-rebalance-recommendation.json")
        .replace("EC2 Instance Rebalance Recommendation", "EC2 Fast Launch State-change Notification");

    assertThat(Ec2Events.parse(scheduledChange)).isEmpty();
    assertThat(Ec2Events.parse(otherEc2Event)).isEmpty();
    assertThat(Ec2Events.parse("{}")).isEmpty();
    assertThat(Ec2Events.parse("{\"hello\": \"world\"}")).isEmpty();
  }

  @Test
  void anInterruptionShapeFromAnotherSourceIsNotEc2s() {
    String forged = sample("spot-instance-interruption-warning.json").replace("\"aws.ec2\"", "\"my.app\"");

    assertThat(Ec2Events.parse(forged)).isEmpty();
  }

  @Test
  void theSameTextGivesEqualInterruptions() {
    String body = sample("spot-instance-interruption-warning.json");

    Optional<Interruption> first = Ec2Events.parse(body);
    assertThat(Ec2Events.parse(body)).isEqualTo(first);
  }

  @Test
  void malformedJsonSaysWhereItBroke() {
    assertThatThrownBy(() -> Ec2Events.parse("{\"detail-type\": \"EC2 Spot"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("EC2 event: not valid JSON at line 1, column ");
    assertThatThrownBy(() -> Ec2Events.parse("not json at all"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> Ec2Events.parse("{} {}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void jsonThatIsNoObjectIsNoEvent() {
    assertThatThrownBy(() -> Ec2Events.parse("[1, 2]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("EC2 event: expected a JSON object (an EventBridge event), got array");
    assertThatThrownBy(() -> Ec2Events.parse("\"EC2 Spot Instance Interruption Warning\""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("got string");
    assertThatThrownBy(() -> Ec2Events.parse("  "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty text");
    assertThatThrownBy(() -> Ec2Events.parse(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty text");
  }

  @Test
  void anInterruptionWithoutItsInstanceIsMalformed() {
    String noInstance = sample("spot-instance-interruption-warning.json")
        .replace("\"instance-id\": \"i-1234567890abcdef0\",", "");

    assertThatThrownBy(() -> Ec2Events.parse(noInstance))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("EC2 event 'EC2 Spot Instance Interruption Warning' (id 12345678-1234-1234-1234-123456789012)"
            + " has no detail.instance-id: cannot tell which instance it is about");
  }

  @Test
  void anInterruptionWithoutAValidTimeIsMalformed() {
    String placeholder = sample("instance-rebalance-recommendation.json")
        .replace("2021-11-11T21:29:54Z", "yyyy-mm-ddThh:mm:ssZ");
    String noTime = sample("instance-rebalance-recommendation.json")
        .replace("\"time\": \"2021-11-11T21:29:54Z\",", "");

    assertThatThrownBy(() -> Ec2Events.parse(placeholder))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has time 'yyyy-mm-ddThh:mm:ssZ', expected an ISO-8601 instant");
    assertThatThrownBy(() -> Ec2Events.parse(noTime))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no time");
  }
}
