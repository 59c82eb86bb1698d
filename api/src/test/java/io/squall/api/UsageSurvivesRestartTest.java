package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.time.ManualClock;
import io.squall.providers.local.LocalProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fair-share usage is charged while a job runs, every PriorityCalcPeriod (5 minutes), and
 * survives a controller restart: the next controller decays it from when it was last decayed and
 * charges the still-running job from its watermark, not from its start; its end adds only the
 * rest. An 8-GPU job is billed 8 units a second (one per GPU, Squall's default weights). On a
 * manual clock; the agent, started by hand, outlives the first controller with the job.
 */
class UsageSurvivesRestartTest {
  private static final Duration LONG = Duration.ofSeconds(90);
  private static final double HALF_LIFE_S = Duration.ofDays(7).toSeconds();
  /** Usage is charged to the millisecond: 8 GPUs x 1 ms. */
  private static final double CHARGE_PRECISION = 0.008;

  @TempDir
  Path dir;

  @Test
  void aRunningJobIsChargedEachPeriodAndNeverTwiceAcrossARestart() {
    chargedEachPeriodAndNeverTwice(null);
  }

  /** The same on PostgreSQL, which .ci/run starts; skipped without it. */
  @Test
  void onPostgres() throws java.sql.SQLException {
    chargedEachPeriodAndNeverTwice(Controllers.emptyPostgres());
  }

  private void chargedEachPeriodAndNeverTwice(String jdbcUrl) {
    int port = Controllers.restartablePort();
    Map<String, Object> settings = Controllers.settings(dir.resolve("data"), jdbcUrl, "none");
    settings.put("micronaut.server.port", port);
    settings.put("squall.partitions.gpu.nodes", "node-1");
    settings.put("squall.ticks", "manual");
    settings.put("squall.node-timeout", "1h"); // the clock jumps minutes ahead of the agent's heartbeats
    try (LocalProvider nodes = new LocalProvider(dir.resolve("nodes"))) {
      long id;
      Instant charged;
      double first;
      try (Controllers.Running c = Controllers.start(settings)) {
        Http h = startNode(nodes, port, c);
        ManualTime time = ManualTime.of(c);
        id = h.submit(Map.of("script", "#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\ntouch started\n"
            + "while true; do sleep 1; done\n", "submit_dir", dir.toString()));
        JsonNode running = time.until("the job running", LONG, () -> {
          JsonNode j = h.job(id);
          return j.get("state").asText().equals("RUNNING") ? j : null;
        });
        Poll.until("the job's script to start", LONG, () -> Files.exists(dir.resolve("started")) ? true : null);
        Instant started = Instant.parse(running.get("start_time").asText());
        assertThat(usage(h)).isZero();
        // A calc period on, the running job is charged its run so far.
        time.tickAfter(Duration.ofMinutes(5));
        charged = time.clock().instant();
        first = 8 * seconds(started, charged);
        assertThat(usage(h)).isCloseTo(first, within(CHARGE_PRECISION));
      }
      try (Controllers.Running c = Controllers.startAgainOn(port, settings)) {
        Http h = new Http(c.url());
        ManualTime time = ManualTime.of(c);
        assertThat(h.jobState(id)).isEqualTo("RUNNING");
        // Stored as the first controller left it: not lost, not charged again from the job's start.
        time.clock().set(charged);
        assertThat(usage(h)).isCloseTo(first, within(CHARGE_PRECISION));
        // The next period decays it by 5 minutes and adds 5 minutes of the job, from its watermark.
        Instant next = charged.plus(Duration.ofMinutes(5));
        time.clock().set(next);
        time.tick();
        double second = first * decay(300) + 8 * 300;
        assertThat(usage(h)).isCloseTo(second, within(CHARGE_PRECISION));
        // A minute later it is cancelled: its end adds that minute only.
        ManualClock clock = (ManualClock) c.bean(InstantSource.class);
        clock.advance(Duration.ofMinutes(1));
        assertThat(h.delete("alice-token", "/v1/jobs/" + id).status()).isEqualTo(200);
        JsonNode ended = Poll.until("the job to end", LONG, () -> {
          JsonNode j = h.job(id);
          return j.get("end_time").isNull() ? null : j;
        });
        double end = seconds(next, Instant.parse(ended.get("end_time").asText()));
        assertThat(end).isEqualTo(60);
        assertThat(usage(h)).isCloseTo(second * decay(60) + 8 * 60, within(CHARGE_PRECISION));
      }
    }
  }

  /**
   * A database from before usage was stored (no ledger) gets it worked out once from the jobs'
   * runs, each charged at its end and decayed since: an 8-GPU job counts 8 units a second it ran.
   */
  @Test
  void aDatabaseWithoutStoredUsageGetsItFromPastRuns() throws Exception {
    int port = Controllers.restartablePort();
    Map<String, Object> settings = Controllers.settings(dir.resolve("data"), null, "none");
    settings.put("micronaut.server.port", port);
    settings.put("squall.partitions.gpu.nodes", "node-1");
    settings.put("squall.ticks", "manual");
    settings.put("squall.node-timeout", "1h");
    try (LocalProvider nodes = new LocalProvider(dir.resolve("nodes"))) {
      JsonNode done;
      try (Controllers.Running c = Controllers.start(settings)) {
        Http h = startNode(nodes, port, c);
        ManualTime time = ManualTime.of(c);
        long id = h.submit(Map.of("script", "#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 1\n",
            "submit_dir", dir.toString()));
        done = time.until("the job to end", LONG, () -> {
          JsonNode j = h.job(id);
          return j.get("end_time").isNull() ? null : j;
        });
      }
      try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:h2:file:" + dir.resolve("data/db/squall")
          + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE", "sa", ""); java.sql.Statement s = db.createStatement()) {
        for (String table : List.of("usage_ledger", "usage_figures", "usage_watermarks")) {
          s.execute("DELETE FROM " + table);
        }
      }
      try (Controllers.Running c = Controllers.startAgainOn(port, settings)) {
        Http h = new Http(c.url());
        Instant started = Instant.parse(done.get("start_time").asText());
        Instant ended = Instant.parse(done.get("end_time").asText());
        Instant now = ((ManualClock) c.bean(InstantSource.class)).instant();
        double expected = 8 * seconds(started, ended) * decay(seconds(ended, now));
        assertThat(expected).isPositive();
        assertThat(usage(h)).isCloseTo(expected, within(CHARGE_PRECISION));
      }
    }
  }

  /** alice's raw usage in the research account, as /v1/shares answers it now. */
  private static double usage(Http h) {
    JsonNode shares = h.get("alice-token", "/v1/shares").json();
    assertThat(shares.get("algorithm").asText()).isEqualTo("fair-tree");
    for (JsonNode s : shares.get("shares")) {
      if ("alice".equals(s.get("user").asText(null)) && s.get("account").asText().equals("research")) {
        return s.get("raw_usage").asDouble();
      }
    }
    throw new AssertionError("no alice/research in " + shares);
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 1000.0;
  }

  private static double decay(double seconds) {
    return Math.pow(0.5, seconds / HALF_LIFE_S);
  }

  /** Starts node-1 as an agent that outlives the controller; answers once it is IDLE. */
  private static Http startNode(LocalProvider nodes, int port, Controllers.Running controller) {
    List<NodeLaunch> launches = List.of(new NodeLaunch(new Node("node-1", 8, "h100", 32, 262144, Set.of(), "gpu-pg1",
        NodeState.DOWN), "http://127.0.0.1:" + port, "change-me-agent-token"));
    nodes.launch(new LaunchRequest("test", "gpu", launches, 1, nodes.offerings(List.of("local")).get(0), null,
        Map.of(), "usage-test"));
    Http h = new Http(controller.url());
    Poll.until("node-1 idle", LONG, () -> h.nodeState("node-1").equals("IDLE") ? true : null);
    return h;
  }
}
