package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.gson.JsonObject;
import io.squall.providers.gcp.FakeGce;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's {@code squall.provider: gcp} wiring against {@link FakeGce} (Compute Engine's
 * REST JSON): a 2-node gang on an empty elastic partition is one {@code bulkInsert} of 2
 * {@code a3-highgpu-8g} in one compact placement policy. No agent boots on the fake's machines:
 * the job is cancelled while it waits for them, and the nodes are released after ResumeTimeout,
 * leaving no instance. Prices configured under {@code squall.gcp.*-prices} go over the built-in
 * list and are what the fleet records for the offerings.
 */
class GcpWiringTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final String ZONE = "us-central1-a";

  @TempDir Path dir;

  @Test
  void aGangIsOneBulkInsertIntoACompactPolicyAndNothingIsLeft() throws Exception {
    try (FakeGce gce = new FakeGce("squall-test", "us-central1").offer(ZONE, "a3-highgpu-8g")) {
      Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "gcp");
      s.put("squall.controller-url", "http://10.0.1.5:6820");
      s.put("squall.partitions.gpu.nodes", "cloud-[1-4]");
      s.put("squall.partitions.gpu.elastic", true);
      s.put("squall.partitions.gpu.spot", "on-demand");
      s.put("squall.partitions.gpu.batch-window", "200ms");
      s.put("squall.partitions.gpu.suspend-time", "1s");
      s.put("squall.partitions.gpu.resume-timeout", "3s"); // no agent comes up on a fake machine
      s.put("squall.gcp.project", "squall-test");
      s.put("squall.gcp.region", "us-central1");
      s.put("squall.gcp.zones", List.of(ZONE));
      s.put("squall.gcp.endpoint", gce.endpoint());
      s.put("squall.gcp.source-image", "projects/squall-test/global/images/family/squall-node");
      try (Controllers.Running c = Controllers.start(s)) {
        Http h = new Http(c.url());
        long id = h.submit("#!/bin/bash\n#SBATCH -N 2 --gres=gpu:8\nsrun hostname\n");
        JsonNode instances = Poll.until("2 instances recorded", LONG, () -> {
          JsonNode all = h.get("admin-token", "/v1/instances").json().get("instances");
          return all.size() == 2 ? all : null;
        });
        assertThat(instances.findValuesAsText("zone")).containsOnly(ZONE);
        assertThat(instances.findValuesAsText("instance_type")).containsOnly("a3-highgpu-8g");
        List<FakeGce.Request> calls = gce.requests("POST", "/instances/bulkInsert");
        assertThat(calls).hasSize(1);
        JsonObject body = calls.get(0).json();
        assertThat(body.get("count").getAsLong()).isEqualTo(2);
        assertThat(body.getAsJsonObject("instanceProperties").getAsJsonArray("resourcePolicies")).hasSize(1);
        assertThat(gce.instanceCount()).isEqualTo(2);

        assertThat(h.delete("alice-token", "/v1/jobs/" + id).status()).isEqualTo(200);
        Poll.until("the instances deleted", LONG, () -> gce.instanceCount() == 0 ? true : null);
        Poll.until("no instance recorded", LONG, () ->
            h.get("admin-token", "/v1/instances").json().get("instances").isEmpty() ? true : null);
      }
    }
  }

  /**
   * {@code squall.gcp.on-demand-prices} and {@code spot-prices} each replace one half of a listed
   * machine type's price and leave the rest of the built-in list alone; the fleet records them.
   */
  @Test
  void configuredPricesGoOverTheBuiltInListAndReachTheOfferings() throws Exception {
    try (FakeGce gce = new FakeGce("squall-test", "us-central1").offer(ZONE, "a3-highgpu-8g")
        .offer(ZONE, "a3-megagpu-8g")) {
      Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "gcp");
      s.put("squall.controller-url", "http://10.0.1.5:6820");
      s.put("squall.ticks", "manual");
      s.put("squall.partitions.gpu.nodes", "cloud-[1-4]");
      s.put("squall.partitions.gpu.elastic", true);
      s.put("squall.partitions.gpu.instance-types", List.of("a3-highgpu-8g", "a3-megagpu-8g"));
      s.put("squall.gcp.project", "squall-test");
      s.put("squall.gcp.region", "us-central1");
      s.put("squall.gcp.zones", List.of(ZONE));
      s.put("squall.gcp.endpoint", gce.endpoint());
      s.put("squall.gcp.source-image", "projects/squall-test/global/images/family/squall-node");
      s.put("squall.gcp.on-demand-prices", Map.of("a3-highgpu-8g", 70.5));
      s.put("squall.gcp.spot-prices", Map.of("a3-megagpu-8g", 21.25));
      try (Controllers.Running c = Controllers.start(s)) {
        ManualTime.of(c).tick(); // the fleet lists its partitions' offerings and records their prices
        Map<String, Double> recorded = new TreeMap<>();
        new Http(c.url()).get("alice-token", "/v1/prices").json().get("prices")
            .forEach(p -> recorded.put(p.get("offering").asText(), p.get("usd_per_hour").asDouble()));
        assertThat(recorded).containsOnly(
            entry("a3-highgpu-8g/" + ZONE + "/ON_DEMAND", 70.5), // configured
            entry("a3-highgpu-8g/" + ZONE + "/SPOT", 50.61), // built in
            entry("a3-megagpu-8g/" + ZONE + "/ON_DEMAND", 92.94), // built in
            entry("a3-megagpu-8g/" + ZONE + "/SPOT", 21.25)); // configured
      }
    }
  }

  /** A negative configured price stops the controller at start-up, naming the key and machine type. */
  @Test
  void aNegativeConfiguredPriceStopsTheControllerAtStartUp() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "gcp");
    s.put("squall.controller-url", "http://10.0.1.5:6820");
    s.put("squall.gcp.project", "squall-test");
    s.put("squall.gcp.zones", List.of(ZONE));
    s.put("squall.gcp.endpoint", "http://127.0.0.1:9"); // never called: the price is refused first
    s.put("squall.gcp.source-image", "projects/squall-test/global/images/family/squall-node");
    s.put("squall.gcp.spot-prices", Map.of("a3-highgpu-8g", -1));
    assertThatThrownBy(() -> Controllers.start(s)).hasStackTraceContaining(
        "squall.gcp.spot-prices.a3-highgpu-8g: a price is US dollars per node-hour, 0 or more, not -1.0");
  }
}
