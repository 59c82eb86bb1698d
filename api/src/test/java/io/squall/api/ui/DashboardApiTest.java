package io.squall.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.api.Controllers;
import io.squall.api.FakeAgent;
import io.squall.api.Http;
import io.squall.api.ManualTime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the dashboard is served and reads, over plain HTTP: its files from the service's jar without
 * a token, nothing else under {@code /ui}; and the endpoints added for it ({@code /v1/whoami},
 * {@code /v1/utilisation}, {@code /v1/reports/spend}, the output's {@code offset}), authorised as
 * the rest of the API. Money comes from a node launched on demand at $40 an hour and held 30
 * minutes of a manual clock by a gang on a fake agent.
 */
class DashboardApiTest {
  private static final Duration BATCH_WINDOW = Duration.ofMillis(200);

  @TempDir Path dir;

  private Map<String, Object> settings() {
    Map<String, Object> s = Controllers.elasticSettings(dir.resolve("data"), "cloud-[1-2]", BATCH_WINDOW);
    s.put("squall.partitions.gpu.suspend-time", "10h");
    s.put("squall.local.on-demand-price", 40);
    s.put("squall.local.boot-delay", "10h"); // the test's fake agent comes up instead
    s.put("squall.accounts.research.soft-limit-usd", 100);
    s.put("squall.accounts.vision.shares", 1);
    s.put("squall.users.carol.token", "carol-token");
    s.put("squall.users.carol.account", "vision");
    s.put("squall.utilisation.interval", "1s");
    return s;
  }

  @Test
  void thePageAndItsLibrariesAreServedWithoutATokenAndNothingElseIs() {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      for (String path : List.of("/ui", "/ui/", "/ui/index.html")) {
        Http.Answer page = h.get(null, path);
        assertThat(page.status()).as(path).isEqualTo(200);
        assertThat(page.body()).contains("<title>Squall</title>");
      }
      Http.Answer page = h.send(null, "GET", "/ui", null, null);
      // Every file the page names is served here: nothing comes from elsewhere.
      Matcher named = Pattern.compile("(?:src|href)=\"([^\"#]+)\"").matcher(page.body());
      List<String> files = new ArrayList<>();
      while (named.find()) {
        files.add(named.group(1));
      }
      assertThat(files).containsExactlyInAnyOrder("/ui/tabulator.min.css", "/ui/app.css", "/ui/echarts.min.js",
          "/ui/tabulator.min.js", "/ui/app.js");
      for (String f : files) {
        Http.Answer a = h.get(null, f);
        assertThat(a.status()).as(f).isEqualTo(200);
        assertThat(a.body()).as(f).hasSizeGreaterThan(f.endsWith("min.js") ? 100_000 : 1000);
      }
      assertThat(h.get(null, "/ui/echarts.min.js").body()).contains("echarts");
      assertThat(h.get(null, "/ui/tabulator.min.js").body()).contains("Tabulator");

      Http.Answer missing = h.get(null, "/ui/secrets.txt");
      assertThat(missing.status()).isEqualTo(404);
      assertThat(missing.error()).contains("/ui/secrets.txt: the dashboard has no such file");
      assertThat(h.get(null, "/ui/..%2Fapplication.yml").status()).isEqualTo(404);
      // The data stays behind the token.
      assertThat(h.get(null, "/v1/whoami").status()).isEqualTo(401);
    }
  }

  @Test
  void thePagesFilesCarryAPolicyThatAllowsOnlyThisOrigin() throws Exception {
    try (Controllers.Running c = Controllers.start(settings())) {
      java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create(c.url() + "/ui")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(r.headers().firstValue("Content-Security-Policy")).hasValue(DashboardController.POLICY);
      assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
      assertThat(DashboardController.POLICY).contains("default-src 'self'", "script-src 'self';")
          .doesNotContain("unsafe-eval", "http");
    }
  }

  @Test
  void anUnchangedFileIsRevalidatedWithoutItsBytes() throws Exception {
    try (Controllers.Running c = Controllers.start(settings())) {
      java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
      java.net.URI chart = java.net.URI.create(c.url() + "/ui/echarts.min.js");
      java.net.http.HttpResponse<String> first = http.send(java.net.http.HttpRequest.newBuilder(chart).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      String etag = first.headers().firstValue("ETag").orElseThrow();
      assertThat(etag).matches("\"[0-9a-f]{32}\"");
      for (String match : List.of(etag, "W/" + etag, "\"other\", " + etag, "*")) {
        java.net.http.HttpResponse<String> again = http.send(java.net.http.HttpRequest.newBuilder(chart)
            .header("If-None-Match", match).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).as(match).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(again.headers().firstValue("ETag")).hasValue(etag);
      }
      java.net.http.HttpResponse<String> stale = http.send(java.net.http.HttpRequest.newBuilder(chart)
          .header("If-None-Match", "\"other\"").build(), java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(stale.statusCode()).isEqualTo(200);
      assertThat(stale.body()).isEqualTo(first.body());
      java.net.http.HttpResponse<String> page = http.send(java.net.http.HttpRequest.newBuilder(
          java.net.URI.create(c.url() + "/ui")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(page.headers().firstValue("ETag").orElseThrow()).isNotEqualTo(etag);
    }
  }

  @Test
  void whoamiSaysWhoTheTokenIs() {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      assertThat(h.get("alice-token", "/v1/whoami").json().toString())
          .isEqualTo("{\"user\":\"alice\",\"account\":\"research\",\"operator\":false}");
      assertThat(h.get("admin-token", "/v1/whoami").json().get("operator").asBoolean()).isTrue();
    }
  }

  @Test
  void utilisationCountsEveryGpuOncePerInterval() {
    try (Controllers.Running c = Controllers.start(settings()); FakeAgent agent = new FakeAgent()) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      time.tick();
      h.submit("#!/bin/bash\n#SBATCH -t 60 --gres=gpu:8 --output=/dev/null\necho ok\n");
      time.tickAfter(Duration.ofSeconds(1));
      time.tickAfter(Duration.ofMillis(300)); // the batch window has passed: launched; not a sample yet
      register(h, agent);
      time.tickAfter(Duration.ofMillis(700));
      JsonNode u = h.get("bob-token", "/v1/utilisation").json();
      assertThat(u.get("interval_seconds").asLong()).isEqualTo(1);
      List<String> counts = new ArrayList<>();
      for (JsonNode s : u.get("samples")) {
        assertThat(s.get("allocated").asInt() + s.get("idle").asInt() + s.get("powered_down").asInt()
            + s.get("down").asInt()).isEqualTo(16);
        counts.add(s.get("allocated") + "/" + s.get("idle") + "/" + s.get("powered_down"));
      }
      // Nothing yet; the gang's node allocated while it boots; running on it.
      assertThat(counts).containsExactly("0/0/16", "8/0/8", "8/0/8");
      Instant second = Instant.parse(u.get("samples").get(1).get("time").asText());
      assertThat(h.get("bob-token", "/v1/utilisation?since=" + second).json().get("samples")).hasSize(2);
      Http.Answer bad = h.get("bob-token", "/v1/utilisation?since=yesterday");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(bad.error()).startsWith("since=yesterday: expected a date");
    }
  }

  @Test
  void spendOverTimeIsEachBudgetsRunningTotalWithItsLimitsAndTheMonthByCapacityType() {
    try (Controllers.Running c = Controllers.start(settings()); FakeAgent agent = new FakeAgent()) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long id = runningOnTheFakeAgent(h, time, agent);
      assertThat(h.jobState(id)).isEqualTo("RUNNING");
      time.tickAfter(Duration.ofMinutes(30));

      JsonNode admin = h.get("admin-token", "/v1/reports/spend?points=10").json();
      JsonNode research = line(admin, "research");
      assertThat(research.get("period").asText()).isEqualTo("month");
      assertThat(research.get("soft_limit_usd").asDouble()).isEqualTo(100);
      assertThat(research.get("hard_limit_usd").isNull()).isTrue();
      JsonNode points = research.get("points");
      assertThat(points).hasSize(11);
      assertThat(points.get(0).get("usd").asDouble()).isZero();
      assertThat(points.get(0).get("time").asText()).isEqualTo(research.get("period_start").asText());
      double last = points.get(10).get("usd").asDouble();
      // Half an hour of a $40 node, and the moments before it (boot, the first tick) at most a cent more.
      assertThat(last).isBetween(20.0, 20.01);
      for (int i = 1; i < points.size(); i++) {
        assertThat(points.get(i).get("usd").asDouble()).isGreaterThanOrEqualTo(points.get(i - 1).get("usd").asDouble());
      }
      assertThat(admin.get("month").get("by_capacity_type").toString())
          .matches("\\{\"spot\":0\\.0,\"on_demand\":20\\.0[0-9]*\\}");
      assertThat(admin.get("month").get("savings_usd").asDouble()).isZero();

      // A user sees the budgets their account spends against, and their own jobs' money.
      JsonNode alice = h.get("alice-token", "/v1/reports/spend").json();
      assertThat(alice.get("accounts")).extracting(a -> a.get("account").asText()).containsExactly("research");
      assertThat(line(alice, "research").get("points")).hasSize(49);
      assertThat(alice.get("month").get("cost_usd").asDouble()).isEqualTo(last);
      JsonNode carol = h.get("carol-token", "/v1/reports/spend").json();
      assertThat(carol.get("accounts")).isEmpty();
      assertThat(carol.get("month").get("cost_usd").asDouble()).isZero();

      for (String bad : List.of("0", "501", "ten")) {
        Http.Answer a = h.get("admin-token", "/v1/reports/spend?points=" + bad);
        assertThat(a.status()).as(bad).isEqualTo(400);
        assertThat(a.error()).isEqualTo("points=" + bad + ": expected a whole number from 1 to 500");
      }
    }
  }

  @Test
  void outputIsReadFromAnOffset() {
    try (Controllers.Running c = Controllers.start(settings()); FakeAgent agent = new FakeAgent()) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long id = runningOnTheFakeAgent(h, time, agent);
      Http.Answer sent = h.post(FakeAgent.TOKEN, "/v1/agent/output", Map.of("job", String.valueOf(id),
          "stream", "stdout", "offset", 0, "data", "step 1\nstep 2\n"));
      assertThat(sent.status()).as(sent.body()).isEqualTo(200);
      assertThat(h.get("alice-token", "/v1/jobs/" + id + "/output").body()).isEqualTo("step 1\nstep 2\n");
      assertThat(h.get("alice-token", "/v1/jobs/" + id + "/output?offset=7").body()).isEqualTo("step 2\n");
      assertThat(h.get("alice-token", "/v1/jobs/" + id + "/output?offset=14").body()).isEmpty();
      Http.Answer bad = h.get("alice-token", "/v1/jobs/" + id + "/output?offset=-1");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(bad.error()).isEqualTo("offset=-1: expected a byte offset, a whole number from 0");
    }
  }

  /** A gang of one whole node, launched and run on the fake agent; its id. */
  private static long runningOnTheFakeAgent(Http h, ManualTime time, FakeAgent agent) {
    long id = h.submit("#!/bin/bash\n#SBATCH -t 60 --gres=gpu:8 --output=/dev/null\necho ok\n");
    time.allocateAndLaunch(BATCH_WINDOW);
    register(h, agent);
    time.tick();
    return id;
  }

  /** The fake agent comes up as the node launched for the test's job. */
  private static void register(Http h, FakeAgent agent) {
    agent.register(h, poweringUp(h));
  }

  /** The node being launched (the one the job was given). */
  static String poweringUp(Http h) {
    for (JsonNode n : h.get("admin-token", "/v1/nodes").json().get("nodes")) {
      if (n.get("state").asText().equals("POWERING_UP")) {
        return n.get("name").asText();
      }
    }
    throw new AssertionError("no node is powering up: " + h.get("admin-token", "/v1/nodes").body() + " "
        + h.get("admin-token", "/v1/jobs").body() + " " + h.get("admin-token", "/v1/launches").body());
  }

  private static JsonNode line(JsonNode spend, String account) {
    for (JsonNode a : spend.get("accounts")) {
      if (a.get("account").asText().equals(account)) {
        return a;
      }
    }
    throw new AssertionError("no line for " + account + " in " + spend);
  }
}
