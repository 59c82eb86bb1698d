package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finance's rules in the service, on the local provider's pretend cloud (on-demand $36 a node-hour,
 * spot $12: $4.50 and $1.50 per GPU-hour), on a manual clock: the capacity a QOS asks for, price
 * caps of an account, a deadline's safety net, and each job's history saying what its nodes were
 * bought as and why.
 */
class PurchaseRulesTest {
  @TempDir
  Path dir;

  private Map<String, Object> settings() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.ticks", "manual");
    s.put("squall.node-timeout", "30m");
    s.put("squall.partitions.gpu.nodes", "cloud-[1-3]");
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.local.on-demand-price", 36);
    s.put("squall.local.spot-price", 12);
    return s;
  }

  private static List<String> launched(Http h) {
    List<String> out = new ArrayList<>();
    h.get("admin-token", "/v1/launches").json().get("launches").forEach(l -> out.add(l.get("offering").asText()));
    return out;
  }

  private static String history(Http h, String job) {
    StringBuilder b = new StringBuilder();
    h.get("admin-token", "/v1/jobs/" + job).json().get("events").forEach(e -> b.append(e.get("reason").asText()).append('\n'));
    return b.toString();
  }

  @Test
  void aQosChoosesTheCapacityAndAnAccountsCapHoldsSpotBack() {
    Map<String, Object> s = settings();
    s.put("squall.qos.urgent.capacity", "on-demand");
    s.put("squall.qos.cheap.capacity", "spot-only");
    s.put("squall.qos.cheap.priority", 10);
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      String urgent = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 -t 10 --qos=urgent --output=/dev/null\n"
          + "sleep 30\n"));
      time.tick();
      time.tickAfter(Duration.ofSeconds(1));
      time.tickAfter(Duration.ofSeconds(1));
      assertThat(launched(h)).containsExactly("local/local/ON_DEMAND"); // spot exists, but the QOS says on-demand
      assertThat(history(h, urgent)).contains("nodes launched as local/local/ON_DEMAND at 4.50 USD per GPU-hour")
          .contains("QOS urgent: on-demand");
      String cheap = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 -t 10 --qos=cheap --output=/dev/null\n"
          + "sleep 30\n"));
      time.tickAfter(Duration.ofSeconds(1));
      time.tickAfter(Duration.ofSeconds(1));
      assertThat(launched(h)).containsExactly("local/local/ON_DEMAND", "local/local/SPOT");
      assertThat(history(h, cheap)).contains("QOS cheap: spot-only");
      // GET /v1/qos shows the rules.
      JsonNode qos = h.get("alice-token", "/v1/qos").json().get("qos");
      assertThat(qos.findValuesAsText("name")).contains("normal", "urgent", "cheap");
    }
  }

  @Test
  void aSpotOnlyJobIsNotPlacedOnAnOnDemandMachineAlreadyUpButOnANewSpotOne() {
    Map<String, Object> s = settings();
    s.put("squall.qos.urgent.capacity", "on-demand");
    s.put("squall.qos.cheap.capacity", "spot-only");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      // Half a node on-demand, running long enough for the test.
      String urgent = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:4 -t 10 --qos=urgent --output=/dev/null\n"
          + "sleep 120\n"));
      time.tick();
      time.tickAfter(Duration.ofSeconds(1));
      time.until("the on-demand job to run", Duration.ofSeconds(120),
          () -> h.jobState(urgent).equals("RUNNING") ? true : null);
      String onDemandNode = h.job(urgent).get("nodes").asText();
      // Its node has 4 GPUs free, but its machine is on-demand: the spot-only job gets a spot one.
      String cheap = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:4 -t 10 --qos=cheap --output=/dev/null\n"
          + "true\n"));
      time.tick();
      time.tickAfter(Duration.ofSeconds(1));
      assertThat(h.job(cheap).get("nodes").asText()).isNotEmpty().isNotEqualTo(onDemandNode);
      assertThat(launched(h)).containsExactly("local/local/ON_DEMAND", "local/local/SPOT");
      // A job that may run on either goes on the free half of the node that is up.
      String plain = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:4 -t 10 --output=/dev/null\ntrue\n"));
      time.tick();
      assertThat(h.job(plain).get("nodes").asText()).isEqualTo(onDemandNode);
      h.delete("alice-token", "/v1/jobs/" + urgent);
    }
  }

  @Test
  void aSpotCapBelowTheSpotPriceKeepsASpotOnlyJobWaitingAndSaysWhy() {
    Map<String, Object> s = settings();
    s.put("squall.qos.cheap.capacity", "spot-only");
    s.put("squall.accounts.research.max-spot-usd-per-gpu-hour", 1.0);
    // 16-GPU nodes: spot at 0.75 per GPU-hour, under the cap. Were the cap below spot in every
    // partition, the controller would not start (PriceCapsConfigTest).
    s.put("squall.partitions.wide.nodes", "wide-[1-2]");
    s.put("squall.partitions.wide.elastic", true);
    s.put("squall.partitions.wide.gpus", 16);
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      String cheap = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 -t 10 --qos=cheap --output=/dev/null\n"
          + "true\n"));
      time.tick();
      time.tickAfter(Duration.ofSeconds(1));
      time.tickAfter(Duration.ofSeconds(1));
      assertThat(launched(h)).isEmpty();
      assertThat(h.job(cheap).get("reason").asText()).contains("spot only")
          .contains("caps spot at most 1.00").contains("account research caps");
    }
  }

  @Test
  void aCapBelowSpotInEveryPartitionStopsTheControllerAtStartUp() {
    Map<String, Object> s = settings();
    s.put("squall.accounts.research.max-spot-usd-per-gpu-hour", 1.0);
    assertThatThrownBy(() -> Controllers.start(s)).hasStackTraceContaining(
        "squall.accounts.research.max-spot-usd-per-gpu-hour: 1.0 is below the list price of every spot offering of"
            + " every elastic partition, the cheapest being local in partition gpu at 1.50 USD per GPU-hour");
  }

  @Test
  void aDeadlineWithSlackWaitsForSpotAndOneAtRiskGoesOnDemand() {
    Map<String, Object> s = settings();
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      // 60 min of work due in 62 min: 2 min of slack, under twice the 5 min changeover.
      String tight = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 -t 60 --deadline=now+62minutes"
          + " --output=/dev/null\nsleep 30\n"));
      String loose = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 -t 60 --deadline=now+1day"
          + " --output=/dev/null\nsleep 30\n"));
      time.tick();
      time.tickAfter(Duration.ofSeconds(1));
      time.tickAfter(Duration.ofSeconds(1));
      assertThat(history(h, tight)).contains("nodes launched as local/local/ON_DEMAND")
          .contains("deadline: safety net");
      assertThat(history(h, loose)).contains("nodes launched as local/local/SPOT")
          .contains("deadline: ahead of uniform progress");
    }
  }
}
