package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.core.spot.InterruptionSource;
import io.squall.spot.metadata.FakeImds;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --interruptions}: the agent watches the metadata service and tells the controller. */
class InterruptionWatchTest {
  @TempDir Path dir;

  @Test
  void aSpotNoticeReachesTheControllerOnce() throws Exception {
    try (FakeController controller = FakeController.start();
        FakeImds imds = new FakeImds();
        Agent agent = start(controller, imds)) {
      Eventually.until("the agent to poll the metadata service", Eventually.LONG, () -> imds.actionReads() >= 1);
      assertThat(controller.interruptions()).isEmpty();

      imds.instanceAction("{\"action\": \"terminate\", \"time\": \"2026-11-21T08:22:00Z\"}");

      JsonNode notice = Eventually.value("the notice at the controller", Eventually.LONG,
          () -> controller.interruptions().stream().findFirst());
      assertThat(notice.path("name").asText()).isEqualTo("node-1");
      assertThat(notice.path("source").asText()).isEqualTo("AWS_METADATA");
      assertThat(notice.path("kind").asText()).isEqualTo("TERMINATION");
      assertThat(notice.path("instance_id").asText()).isEqualTo(FakeImds.INSTANCE_ID);
      assertThat(notice.path("deadline").asText()).isEqualTo("2026-11-21T08:22:00Z");
      assertThat(Instant.parse(notice.path("noticed_at").asText())).isBefore(Instant.now().plusSeconds(1));
      assertThat(notice.path("detail").asText()).contains("terminate");
      assertThat(controller.calls(InterruptionWatch.PATH).get(0).authorization())
          .isEqualTo("Bearer " + FakeController.TOKEN);

      // The service keeps showing the notice; the controller hears of it once.
      long reads = imds.actionReads();
      Eventually.until("two more polls", Eventually.LONG, () -> imds.actionReads() >= reads + 2);
      assertThat(controller.calls(InterruptionWatch.PATH)).hasSize(1);
    }
  }

  @Test
  void aNoticeTheControllerRefusesIsSentAgainUntilItIsTaken() throws Exception {
    try (FakeController controller = FakeController.start();
        FakeImds imds = new FakeImds()) {
      controller.failNextInterruptions(2);
      imds.instanceAction("{\"action\": \"terminate\", \"time\": \"2026-11-21T08:22:00Z\"}");
      try (Agent agent = start(controller, imds)) {
        Eventually.until("the notice at the controller", Eventually.LONG, () -> !controller.interruptions().isEmpty());
      }

      List<FakeController.Call> posts = controller.calls(InterruptionWatch.PATH);
      assertThat(posts).hasSize(3);
      assertThat(posts).extracting(FakeController.Call::body).containsOnly(posts.get(0).body());
      assertThat(controller.interruptions()).hasSize(1);
    }
  }

  @Test
  void onlyServerSideFailuresAreWorthResending() {
    assertThat(InterruptionWatch.refusedForGood(400)).isTrue();
    assertThat(InterruptionWatch.refusedForGood(403)).isTrue();
    assertThat(InterruptionWatch.refusedForGood(429)).isFalse();
    assertThat(InterruptionWatch.refusedForGood(408)).isFalse();
    assertThat(InterruptionWatch.refusedForGood(503)).isFalse();
    assertThat(InterruptionWatch.refusedForGood(200)).isFalse();
  }

  @Test
  void withoutTheOptionNothingIsWatched() throws Exception {
    try (FakeController controller = FakeController.start();
        Agent agent = TestAgents.start("node-1", controller.url(), dir)) {
      Eventually.until("a heartbeat", Eventually.LONG, () -> !controller.calls("/v1/agent/heartbeat").isEmpty());
      assertThat(controller.calls(InterruptionWatch.PATH)).isEmpty();
    }
  }

  @Test
  void eachCloudHasItsWatcherAndItsAddress() {
    Optional<InterruptionSource> aws = Interruptions.AWS.source("n", null, InstantSource.system());
    Optional<InterruptionSource> gcp = Interruptions.GCP.source("n", URI.create("http://127.0.0.1:1"),
        InstantSource.system());

    assertThat(aws).get().extracting(InterruptionSource::name).isEqualTo("aws-metadata");
    assertThat(gcp).get().extracting(InterruptionSource::name).isEqualTo("gce-metadata");
    assertThat(Interruptions.NONE.source("n", null, InstantSource.system())).isEmpty();
    assertThat(Map.of("aws", Interruptions.parse("AWS"), "gcp", Interruptions.parse(" gcp")))
        .containsEntry("aws", Interruptions.AWS).containsEntry("gcp", Interruptions.GCP);
  }

  private Agent start(FakeController controller, FakeImds imds) throws Exception {
    return Agent.start(TestAgents.config("node-1", controller.url(), dir, Interruptions.AWS, imds.url()), System.err);
  }
}
