package io.squall.spot.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.spot.Interruption;
import io.squall.core.spot.Interruption.Kind;
import io.squall.core.spot.Interruption.Source;
import io.squall.core.time.ManualClock;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GceMetadataSourceTest {
  private static final Instant START = Instant.parse("2026-11-21T08:20:00Z");

  private FakeGceMetadata gce;
  private ManualClock clock;
  private GceMetadataSource source;

  @BeforeEach
  void start() throws Exception {
    gce = new FakeGceMetadata();
    clock = new ManualClock(START);
    source = new GceMetadataSource("gpu-1", gce.url(), clock);
  }

  @AfterEach
  void stop() {
    source.close();
    gce.close();
  }

  @Test
  void noNoticeIsNothing() {
    assertThat(source.poll()).isEmpty();
    assertThat(source.poll()).isEmpty();

    assertThat(gce.count("GET", GceMetadataSource.ID_PATH)).isEqualTo(1);
    assertThat(gce.count("GET", GceMetadataSource.PREEMPTED_PATH)).isEqualTo(2);
    assertThat(source.name()).isEqualTo("gce-metadata");
  }

  @Test
  void preemptionIsATerminationThirtySecondsAway() {
    gce.preempted("TRUE");

    assertThat(source.poll()).containsExactly(new Interruption("gpu-1", FakeGceMetadata.INSTANCE_ID,
        Source.GCE_METADATA, Kind.TERMINATION, START, START.plusSeconds(30), "GCE instance/preempted: TRUE"));
  }

  @Test
  void hostMaintenanceThatTerminatesIsATerminationAMinuteAway() {
    gce.maintenanceEvent("TERMINATE_ON_HOST_MAINTENANCE");

    assertThat(source.poll()).singleElement().satisfies(i -> {
      assertThat(i.kind()).isEqualTo(Kind.TERMINATION);
      assertThat(i.deadline()).isEqualTo(START.plusSeconds(60));
      assertThat(i.detail()).contains("TERMINATE_ON_HOST_MAINTENANCE");
    });
  }

  @Test
  void aLiveMigrationKeepsTheMachine() {
    gce.maintenanceEvent("MIGRATE_ON_HOST_MAINTENANCE");

    assertThat(source.poll()).isEmpty();
  }

  @Test
  void aNoticeIsReportedOnceAndPreemptionWinsOverMaintenance() {
    gce.maintenanceEvent("TERMINATE_ON_HOST_MAINTENANCE");
    gce.preempted("TRUE");

    assertThat(source.poll()).extracting(Interruption::deadline).containsExactly(START.plusSeconds(30));
    clock.advance(Duration.ofSeconds(1));
    assertThat(source.poll()).isEmpty();
    gce.maintenanceEvent("NONE");
    assertThat(source.poll()).isEmpty();

    gce.preempted("FALSE");
    assertThat(source.poll()).isEmpty();
    gce.preempted("TRUE");
    assertThat(source.poll()).extracting(Interruption::noticedAt).containsExactly(START.plusSeconds(1));
  }

  @Test
  void anAnswerThatCannotBeReadIsSkipped() {
    gce.preempted("MAYBE");
    gce.maintenanceEvent("SOMETHING_NEW");

    assertThat(source.poll()).isEmpty();

    gce.maintenanceEvent("TERMINATE_ON_HOST_MAINTENANCE");
    assertThat(source.poll()).extracting(Interruption::kind).containsExactly(Kind.TERMINATION);
  }

  @Test
  void aFailingServerThrowsAndLosesNothing() {
    gce.preempted("TRUE");
    gce.failWith(503, 2);

    assertThatThrownBy(source::poll).isInstanceOf(UncheckedIOException.class).hasMessageContaining("HTTP 503");
    assertThatThrownBy(source::poll).isInstanceOf(UncheckedIOException.class);

    assertThat(source.poll()).extracting(Interruption::kind).containsExactly(Kind.TERMINATION);
  }

  @Test
  void theFakeRefusesARequestWithoutTheFlavorHeader() throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    URI preempted = gce.url().resolve(GceMetadataSource.PREEMPTED_PATH);

    assertThat(http.send(HttpRequest.newBuilder(preempted).build(), HttpResponse.BodyHandlers.discarding())
        .statusCode()).isEqualTo(403);
  }
}
