package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cost in the service: one elastic node at a pretend $36 an hour on demand ($0.01 a second),
 * shared by alice's and bob's jobs (4 of its 8 GPUs each), on the manual clock so that every
 * held second is known. What the instance billed is split between them by share and time held,
 * the rest is the partition's overhead, and the sum checks (conservation), on H2 and PostgreSQL,
 * after a restart too.
 */
class MoneyTest {
  private static final Duration LONG = Duration.ofSeconds(90);

  @TempDir
  Path dir;

  @Test
  void onH2() throws IOException {
    costIsSplitByShareAndTimeHeldAndAddsUp(null);
  }

  @Test
  void onPostgres() throws IOException, SQLException {
    costIsSplitByShareAndTimeHeldAndAddsUp(Controllers.emptyPostgres());
  }

  private Map<String, Object> settings(String jdbcUrl) {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), jdbcUrl, "local");
    s.put("squall.ticks", "manual");
    s.put("squall.partitions.gpu.nodes", "cloud-1");
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.local.on-demand-price", 36);
    // The manual clock jumps ahead of the agent's real heartbeats: node loss is not what is tested.
    s.put("squall.node-timeout", "30m");
    return s;
  }

  private String waitingFor(String file) {
    return "#!/bin/bash\n#SBATCH --gres=gpu:4 --output=/dev/null\nwhile [ ! -e " + dir.resolve(file)
        + " ]; do sleep 0.1; done\n";
  }

  private void costIsSplitByShareAndTimeHeldAndAddsUp(String jdbcUrl) throws IOException {
    Map<String, Object> settings = settings(jdbcUrl);
    Instant start;
    JsonNode report;
    String job1;
    String job2;
    try (Controllers.Running c = Controllers.start(settings)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      start = time.clock().instant();
      job1 = Long.toString(h.submit(waitingFor("go-1")));
      job2 = h.postScript("bob-token", "/v1/jobs", waitingFor("go-2")).json().get("job_id").asText();
      time.allocateAndLaunch(Duration.ofSeconds(1)); // both on cloud-1 from 0 s; its instance bills from 1 s
      // The agent boots and takes both jobs; the clock stands still meanwhile.
      Poll.until("both jobs running", LONG, () -> {
        time.tick();
        return state(h, job1).equals("RUNNING") && state(h, job2).equals("RUNNING") ? true : null;
      });

      time.clock().advance(Duration.ofSeconds(600));
      Files.createFile(dir.resolve("go-1"));
      Poll.until("job 1 done", LONG, () -> state(h, job1).equals("COMPLETED") ? true : null);
      time.clock().advance(Duration.ofSeconds(300));
      Files.createFile(dir.resolve("go-2"));
      Poll.until("job 2 done", LONG, () -> state(h, job2).equals("COMPLETED") ? true : null);
      time.tick(); // the fleet sees the node idle from now
      time.tickAfter(Duration.ofMinutes(5)); // SuspendTime: the idle node is given back
      Poll.until("the node powered down", LONG, () -> {
        time.tick();
        return h.nodeState("cloud-1").equals("CLOUD") ? true : null;
      });

      // Job 1 held half the node for the 600 s the instance billed while it ran: $3.00.
      // From the test's start: the accounting's default window begins at midnight, and the clock,
      // started at the wall clock's time and moved on 20 minutes, may have passed one.
      JsonNode a = h.get("admin-token", "/v1/accounting?job=" + job1 + "&start=" + start).json().get("jobs").get(0);
      assertThat(a.get("cost_usd").asDouble()).isCloseTo(3.00, within(1e-4));
      assertThat(a.get("on_demand_usd").asDouble()).isCloseTo(3.00, within(1e-4));
      assertThat(a.get("capacity_type").asText()).isEqualTo("ON_DEMAND");
      assertThat(a.get("instance_type").asText()).isEqualTo("local");
      assertThat(a.get("lost_usd").asDouble()).isZero();
      JsonNode b = h.get("admin-token", "/v1/accounting?job=" + job2 + "&start=" + start).json().get("jobs").get(0);
      assertThat(b.get("cost_usd").asDouble()).isCloseTo(4.50, within(1e-4)); // half the node for 900 s

      Http.Answer r = h.get("admin-token", "/v1/reports/cost?by=user&since=" + start + "&until="
          + start.plus(Duration.ofHours(1)));
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      JsonNode totals = r.json().get("totals");
      // Billed from 1 s to the power-down (1,201 s): 1,200 s at $0.01. Overhead: half the node
      // from 601 s to 901 s, the whole of it from 901 s to 1,201 s.
      assertThat(totals.get("billed_usd").asDouble()).isCloseTo(12.00, within(1e-4));
      assertThat(totals.get("overhead_usd").asDouble()).isCloseTo(4.50, within(1e-4));
      assertThat(totals.get("cost_usd").asDouble() + totals.get("overhead_usd").asDouble())
          .isCloseTo(totals.get("billed_usd").asDouble(), within(2e-4));
      assertThat(r.json().get("rows").findValuesAsText("user")).containsExactly("alice", "bob");
      assertThat(r.json().get("overhead").get(0).get("partition").asText()).isEqualTo("gpu");
      assertThat(totals.get("savings_usd").asDouble()).isZero(); // on demand: nothing saved
      report = r.json();
      ((ObjectNode) report).remove("until"); // the period's end, clamped to each controller's now

      // A user sees their own jobs, and no overhead or bill of the cluster.
      JsonNode mine = h.get("bob-token", "/v1/reports/cost?since=" + start).json();
      assertThat(mine.get("rows").findValuesAsText("account")).containsExactly("research");
      assertThat(mine.get("totals").get("cost_usd").asDouble()).isCloseTo(4.50, within(1e-4));
      assertThat(mine.has("overhead")).isFalse();
      assertThat(mine.get("totals").has("billed_usd")).isFalse();
    }
    // Bills, holds and prices are stored: the same period gives the same report after a restart.
    try (Controllers.Running c = Controllers.start(settings)) {
      Http h = new Http(c.url());
      ManualTime.of(c).clock().advance(Duration.ofHours(2)); // the first clock ran ahead of the wall clock
      Http.Answer r = h.get("admin-token", "/v1/reports/cost?by=user&since=" + start + "&until="
          + start.plus(Duration.ofHours(1)));
      JsonNode again = r.json();
      ((ObjectNode) again).remove("until");
      assertThat(again).isEqualTo(report);
    }
  }

  private static String state(Http h, String job) {
    return h.get("admin-token", "/v1/jobs/" + job).json().get("state").asText();
  }

  @Test
  void aReportWithBadDatesOrGroupingIsRefusedNamingTheParameter() {
    try (Controllers.Running c = Controllers.start(settings(null))) {
      Http h = new Http(c.url());
      Http.Answer a = h.get("admin-token", "/v1/reports/cost?since=last-tuesday");
      assertThat(a.status()).isEqualTo(400);
      assertThat(a.error()).startsWith("since=last-tuesday: expected a date");
      a = h.get("admin-token", "/v1/reports/cost?since=2026-11-02&until=2026-11-01");
      assertThat(a.status()).isEqualTo(400);
      assertThat(a.error()).startsWith("until=2026-11-01: must be after since=2026-11-02");
      a = h.get("admin-token", "/v1/reports/cost?until=2026-13-01");
      assertThat(a.status()).isEqualTo(400);
      assertThat(a.error()).startsWith("until=2026-13-01");
      a = h.get("admin-token", "/v1/reports/cost?by=week");
      assertThat(a.status()).isEqualTo(400);
      assertThat(a.error()).isEqualTo("by=week: expected user, account, partition or day");
      a = h.get("admin-token", "/v1/reports/cost?account=nobody");
      assertThat(a.status()).isEqualTo(400);
      assertThat(a.error()).isEqualTo("account=nobody: no such account under squall.accounts");
      // Dates in the three forms pass; by day gives a row per day with money in it (none here).
      a = h.get("admin-token", "/v1/reports/cost?since=2026-11-01&until=2026-11-03T12:00&by=day");
      assertThat(a.status()).as(a.body()).isEqualTo(200);
      assertThat(a.json().get("rows")).isEmpty();
    }
  }
}
