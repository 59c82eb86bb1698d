package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.providers.aws.FakeEc2;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spot fallback through the whole service: the controller's fleet engine, its stored launch
 * intents and the real AWS SDK against {@link FakeEc2} (two zones selling p5.48xlarge spot and
 * on-demand), on a manual clock ({@code squall.ticks: manual}), so that minutes of
 * {@code on-demand-after} take no time and nothing is slept or polled. The instances never run an
 * agent: what is checked is what the fleet asks EC2 for, and when.
 */
class SpotFallbackOnAManualClockTest {
  private static final String TYPE = AwsCloud.TYPE;
  private static final String ZONE_A = "us-east-1a";
  private static final String ZONE_B = "us-east-1b";

  @TempDir Path dir;
  private AwsCloud cloud;
  private FakeEc2 ec2;

  @BeforeEach
  void cloud() throws Exception {
    cloud = new AwsCloud();
    ec2 = cloud.ec2.offer(TYPE, ZONE_A, ZONE_B);
  }

  @AfterEach
  void close() {
    cloud.close();
  }

  /** An elastic partition {@code gpu} of {@code cloud-[1-2]} in two placement groups, spot first, over both zones. */
  private Map<String, Object> settings() {
    Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
    s.put("squall.ticks", "manual");
    s.put("squall.partitions.gpu.spot", "spot-then-on-demand");
    s.put("squall.partitions.gpu.batch-window", "1s");
    s.put("squall.aws.subnets", Map.of(ZONE_A, "subnet-0aaaaaaaaaaaaaaa1", ZONE_B, "subnet-0bbbbbbbbbbbbbbb2"));
    s.put("squall.aws.on-demand-prices", Map.of(TYPE, 98.32));
    return s;
  }

  private record Service(Http http, ManualTime time) {
    /** A cycle allocates the job's nodes, then the batch window passes and the fleet calls EC2. */
    long submitAndLaunch(String options) {
      long job = http.submit("#!/bin/bash\n#SBATCH " + options + " --gres=gpu:8 --output=/dev/null\nhostname\n");
      time.allocateAndLaunch(Duration.ofSeconds(1));
      return job;
    }

    JsonNode instances() {
      return http.get("admin-token", "/v1/instances").json().get("instances");
    }

    List<String> launchStates() {
      List<String> out = new ArrayList<>();
      http.get("admin-token", "/v1/launches").json().get("launches")
          .forEach(l -> out.add(l.get("offering").asText() + " " + l.get("state").asText()));
      return out;
    }
  }

  private static Service service(Controllers.Running c) {
    return new Service(new Http(c.url()), ManualTime.of(c));
  }

  /** What RunInstances was asked, in order: zone and market of each call. */
  private List<String> runInstancesCalls() {
    List<String> out = new ArrayList<>();
    for (FakeEc2.Request r : ec2.requests("RunInstances")) {
      out.add(r.get("Placement.AvailabilityZone") + " " + ("spot".equals(r.get("InstanceMarketOptions.MarketType")) ? "spot" : "on-demand"));
    }
    return out;
  }

  /**
   * Behaviour 1: spot that exists but has no capacity in either zone is tried zone after zone in
   * one tick, and these failures do not use up max-launch-attempts (1 here): the node keeps
   * waiting, and after on-demand-after the fleet goes on-demand.
   */
  @Test
  void capacityFailuresFallBackThroughEveryZoneWithoutUsingUpAttemptsThenOnDemand() throws Exception {
    ec2.spotPrice(TYPE, ZONE_A, 30).spotPrice(TYPE, ZONE_B, 35)
        .capacity(TYPE, ZONE_A, "spot", 0).capacity(TYPE, ZONE_B, "spot", 0);
    Map<String, Object> s = settings();
    s.put("squall.partitions.gpu.max-launch-attempts", 1);
    try (Controllers.Running c = Controllers.start(s)) {
      Service svc = service(c);
      long job = svc.submitAndLaunch("-N 1");
      assertThat(runInstancesCalls()).containsExactly(ZONE_A + " spot", ZONE_B + " spot");
      String node = svc.http().job(job).get("nodes").asText();
      assertThat(svc.http().nodeState(node)).isEqualTo("POWERING_UP");
      assertThat(svc.http().jobState(job)).isEqualTo("CONFIGURING");
      assertThat(svc.instances()).isEmpty();

      svc.time().tickAfter(Duration.ofMinutes(5).minusSeconds(2)); // 4:59 after the allocation
      assertThat(runInstancesCalls()).hasSize(2); // spot exists: on-demand waits on-demand-after

      svc.time().tickAfter(Duration.ofSeconds(1)); // on-demand-after is over; both spot offerings still left alone
      assertThat(runInstancesCalls()).containsExactly(ZONE_A + " spot", ZONE_B + " spot", ZONE_A + " on-demand");
      assertThat(svc.instances()).hasSize(1);
      assertThat(svc.instances().get(0).get("capacity_type").asText()).isEqualTo("ON_DEMAND");
      assertThat(svc.http().nodeState(node)).isEqualTo("POWERING_UP");
    }
  }

  /**
   * With spot only, offerings out of capacity are tried again once no longer left alone
   * (unavailable-for, 5 min): each call a new launch intent under a new token, though none used
   * an attempt (the same token twice once failed the fleet's tick on the intents' primary key).
   */
  @Test
  void spotOutOfCapacityIsTriedAgainAfterUnavailableForAsNewCalls() throws Exception {
    ec2.spotPrice(TYPE, ZONE_A, 30).spotPrice(TYPE, ZONE_B, 35)
        .capacity(TYPE, ZONE_A, "spot", 0).capacity(TYPE, ZONE_B, "spot", 0);
    Map<String, Object> s = settings();
    s.put("squall.partitions.gpu.spot", "spot");
    try (Controllers.Running c = Controllers.start(s)) {
      Service svc = service(c);
      long job = svc.submitAndLaunch("-N 1");
      svc.time().tickAfter(Duration.ofMinutes(5));
      assertThat(runInstancesCalls()).containsExactly(ZONE_A + " spot", ZONE_B + " spot", ZONE_A + " spot",
          ZONE_B + " spot");
      assertThat(svc.launchStates()).hasSize(4).allSatisfy(l -> assertThat(l).endsWith("FAILED"));
      assertThat(svc.http().jobState(job)).isEqualTo("CONFIGURING");
    }
  }

  /** Behaviour 2: spot above max-spot-price in every zone is no spot at all: on-demand at once. */
  @Test
  void spotThatCannotBeUsedAnywhereSendsTheLaunchOnDemandAtOnce() throws Exception {
    ec2.spotPrice(TYPE, ZONE_A, 50).spotPrice(TYPE, ZONE_B, 55);
    Map<String, Object> s = settings();
    s.put("squall.partitions.gpu.max-spot-price", 40);
    try (Controllers.Running c = Controllers.start(s)) {
      Service svc = service(c);
      svc.submitAndLaunch("-N 1");
      assertThat(runInstancesCalls()).containsExactly(ZONE_A + " on-demand");
      assertThat(svc.instances().get(0).get("capacity_type").asText()).isEqualTo("ON_DEMAND");
    }
  }

  /**
   * Behaviour 3: a notice for a spot machine leaves its offering alone; the requeued job's
   * replacement goes to spot in the other zone, not back to the reclaimed one nor waiting there.
   */
  @Test
  void theReplacementAfterAnInterruptionAvoidsTheReclaimedOffering() throws Exception {
    ec2.spotPrice(TYPE, ZONE_A, 30).spotPrice(TYPE, ZONE_B, 35);
    try (Controllers.Running c = Controllers.start(settings())) {
      Service svc = service(c);
      long job = svc.submitAndLaunch("-N 1");
      assertThat(runInstancesCalls()).containsExactly(ZONE_A + " spot");
      String node = svc.http().job(job).get("nodes").asText();

      Http.Answer a = svc.http().post("admin-token", "/v1/nodes/" + node + "/interrupt", Map.of("notice_seconds", 120));
      assertThat(a.status()).as(a.body()).isEqualTo(202);
      svc.time().tickAfter(Duration.ofSeconds(1)); // it had not started: requeued at once, the machine given up
      assertThat(svc.http().job(job).get("restart_count").asInt()).isEqualTo(1);

      svc.time().tickAfter(Duration.ofSeconds(5)); // the node is usable again: the job is allocated
      svc.time().tickAfter(Duration.ofSeconds(1)); // the batch window: the replacement's call
      assertThat(runInstancesCalls()).containsExactly(ZONE_A + " spot", ZONE_B + " spot");
      assertThat(svc.instances()).hasSize(1);
      assertThat(svc.instances().get(0).get("zone").asText()).isEqualTo(ZONE_B);
    }
  }

  /**
   * Prices in force: the fleet records each offering's price as EC2 lists it (spot from its price
   * history), a change ends the old price and begins the new one, and the series survives a
   * restart without being recorded twice.
   */
  @Test
  void thePricesInForceAreRecordedAsTheyChangeAndSurviveARestart() throws Exception {
    ec2.spotPrice(TYPE, ZONE_A, 30).spotPrice(TYPE, ZONE_B, 35);
    String spotA = TYPE + "/" + ZONE_A + "/SPOT";
    Instant changed;
    try (Controllers.Running c = Controllers.start(settings())) {
      Service svc = service(c);
      svc.time().tick();
      Instant first = svc.time().clock().instant();
      JsonNode prices = svc.http().get("alice-token", "/v1/prices").json().get("prices");
      assertThat(prices).hasSize(4); // spot and on-demand in both zones
      JsonNode a = svc.http().get("alice-token", "/v1/prices?offering=" + spotA).json().get("prices");
      assertThat(a).hasSize(1);
      assertThat(a.get(0).get("usd_per_hour").asDouble()).isEqualTo(30);
      assertThat(Instant.parse(a.get(0).get("from").asText()).truncatedTo(ChronoUnit.MILLIS))
          .isEqualTo(first.truncatedTo(ChronoUnit.MILLIS));
      assertThat(a.get(0).get("to").isNull()).isTrue();

      ec2.spotPrice(TYPE, ZONE_A, 25);
      svc.time().tickAfter(Duration.ofMinutes(5)); // the offerings are listed again
      changed = svc.time().clock().instant();
      a = svc.http().get("alice-token", "/v1/prices?offering=" + spotA).json().get("prices");
      assertThat(a).hasSize(2);
      assertThat(a.get(0).get("usd_per_hour").asDouble()).isEqualTo(30);
      assertThat(Instant.parse(a.get(0).get("to").asText()).truncatedTo(ChronoUnit.MILLIS))
          .isEqualTo(changed.truncatedTo(ChronoUnit.MILLIS));
      assertThat(a.get(1).get("usd_per_hour").asDouble()).isEqualTo(25);
      assertThat(a.get(1).get("to").isNull()).isTrue();
    }
    try (Controllers.Running c = Controllers.start(settings())) {
      Service svc = service(c);
      svc.time().tick(); // lists the offerings again: the same prices, nothing new
      JsonNode prices = svc.http().get("alice-token", "/v1/prices").json().get("prices");
      assertThat(prices).hasSize(5);
      assertThat(svc.http().get("alice-token", "/v1/prices?offering=" + spotA).json().get("prices"))
          .extracting(p -> p.get("usd_per_hour").asDouble()).containsExactly(30.0, 25.0);
    }
  }

  /**
   * Behaviour 4: a gang over two placement groups is one launch decision. Zone a has spot for one
   * machine only: its second call fails, the first call's instance is terminated at once, and the
   * gang is launched whole in zone b.
   */
  @Test
  void aGangWhoseSecondCallFailsIsTerminatedAndLaunchedWholeElsewhere() throws Exception {
    ec2.spotPrice(TYPE, ZONE_A, 30).spotPrice(TYPE, ZONE_B, 35).capacity(TYPE, ZONE_A, "spot", 1);
    try (Controllers.Running c = Controllers.start(settings())) {
      Service svc = service(c);
      long job = svc.submitAndLaunch("-N 2");
      assertThat(runInstancesCalls()).containsExactly(ZONE_A + " spot", ZONE_A + " spot", ZONE_B + " spot",
          ZONE_B + " spot");
      List<String> alive = ec2.aliveIds();
      assertThat(alive).hasSize(2);
      JsonNode instances = svc.instances();
      assertThat(instances).hasSize(2);
      instances.forEach(i -> assertThat(i.get("zone").asText()).isEqualTo(ZONE_B));
      assertThat(ec2.requests("TerminateInstances")).hasSize(1);
      assertThat(svc.http().jobState(job)).isEqualTo("CONFIGURING");
    }
  }
}
