package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bad-input suite: at least {@value #PER_ENDPOINT} generated hostile requests to every
 * endpoint, user and agent side, on H2 and on PostgreSQL. None may answer 5xx, and afterwards the
 * queue must still list and show every job, also after a restart (a bad value once stored used to
 * break {@code squeue} for everyone).
 */
class HostileInputTest {
  static final int PER_ENDPOINT = 500;
  private static final String SCRIPT = "#!/bin/bash\n#SBATCH --job-name=probe\nhostname\n";
  private static final List<String> SBATCH_OPTIONS = List.of("partition", "nodes", "ntasks", "gpus", "gpus-per-node",
      "gres", "time", "mem", "array", "dependency", "nodelist", "exclude", "output", "error", "input", "chdir",
      "job-name", "signal", "begin", "account", "qos", "constraint", "export", "hold", "exclusive", "comment");

  @TempDir
  Path dir;

  /** An endpoint and how to make a hostile request to it (with the ids of the jobs and nodes there are). */
  private record Endpoint(String name, String token, Function<HostileRequests, HostileRequests.Request> make) {}

  @Test
  void onH2() {
    survives(null);
  }

  @Test
  void onPostgres() throws SQLException {
    survives(Controllers.emptyPostgres());
  }

  private void survives(String jdbcUrl) {
    Map<String, Object> settings = Controllers.settings(dir, jdbcUrl, "none");
    List<String> failures = new ArrayList<>();
    Map<String, Integer> sent = new TreeMap<>();
    try (Controllers.Running c = Controllers.start(settings)) {
      Http h = new Http(c.url());
      List<String> jobs = new ArrayList<>();
      for (String argv : List.of("--hold", "--array=1-4", "--dependency=singleton", "--gpus=2")) {
        jobs.add(Long.toString(h.submit(Map.of("script", SCRIPT, "argv", List.of(argv), "submit_dir", "/tmp"))));
      }
      jobs.add(jobs.get(1) + "_2");
      List<String> nodes = List.of("node-1", "node-2");
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      HostileRequests r = new HostileRequests(11);
      for (Endpoint e : endpoints(jobs, nodes)) {
        for (int i = 0; i < PER_ENDPOINT; i++) {
          HostileRequests.Request req = e.make().apply(r);
          String token = r.chance(3) ? r.pick(List.of("", "bob-token", "admin-token", "x".repeat(5000))) : e.token();
          int status = send(client, c.url(), token, req);
          sent.merge(e.name(), 1, Integer::sum);
          if (status >= 500) {
            failures.add(status + " from " + req);
          }
        }
      }
      assertThat(failures).as("5xx answers to hostile requests").isEmpty();
      stillServesTheQueue(h);
    }
    try (Controllers.Running again = Controllers.start(settings)) {
      stillServesTheQueue(new Http(again.url()));
    }
    System.out.println("hostile requests: " + sent.values().stream().mapToInt(Integer::intValue).sum() + " to "
        + sent.size() + " endpoints, " + failures.size() + " answered 5xx (" + (jdbcUrl == null ? "H2" : "PostgreSQL") + ")");
    assertThat(sent.values()).allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(PER_ENDPOINT));
  }

  /** An overlong request line or header block is answered with HTTP's own status, not 413 or a reset. */
  @Test
  void overlongRequestLinesAndHeadersGetTheirOwnStatus() throws IOException, InterruptedException {
    try (Controllers.Running c = Controllers.start(Controllers.settings(dir, null, "none"))) {
      Http h = new Http(c.url());
      Http.Answer line = h.get("alice-token", "/v1/jobs?name=" + "x".repeat(5000));
      assertThat(line.status()).isEqualTo(414);
      assertThat(line.error()).contains("request line too long");
      HttpRequest big = HttpRequest.newBuilder(URI.create(c.url() + "/v1/jobs"))
          .header("Authorization", "Bearer alice-token").header("X-Padding", "x".repeat(9000)).build();
      HttpResponse<String> headers = HttpClient.newHttpClient().send(big, HttpResponse.BodyHandlers.ofString());
      assertThat(headers.statusCode()).isEqualTo(431);
      assertThat(headers.body()).contains("request headers too large");
      assertThat(h.get("alice-token", "/v1/jobs").status()).isEqualTo(200);
    }
  }

  /** squeue, scontrol show job and sacct answer for every job, for its owner and for operators. */
  private static void stillServesTheQueue(Http h) {
    Http.Answer all = h.get("admin-token", "/v1/jobs");
    assertThat(all.status()).as(all.body()).isEqualTo(200);
    for (JsonNode j : all.json().get("jobs")) {
      String id = j.get("job_id").asText();
      Http.Answer one = h.get("admin-token", "/v1/jobs/" + id);
      assertThat(one.status()).as(id + ": " + one.body()).isEqualTo(200);
    }
    for (String user : List.of("alice-token", "bob-token")) {
      assertThat(h.get(user, "/v1/jobs").status()).isEqualTo(200);
      assertThat(h.get(user, "/v1/accounting").status()).isEqualTo(200);
      assertThat(h.get(user, "/v1/reports/cost").status()).isEqualTo(200);
    }
    assertThat(h.get("admin-token", "/v1/nodes").status()).isEqualTo(200);
  }

  private static int send(HttpClient client, String base, String token, HostileRequests.Request req) {
    HttpRequest.Builder b;
    try {
      b = HttpRequest.newBuilder(URI.create(base + req.path())).timeout(Duration.ofSeconds(60));
    } catch (IllegalArgumentException unsendable) {
      return 0; // not a URI any client could send
    }
    if (!token.isEmpty()) {
      b.header("Authorization", "Bearer " + token);
    }
    if (req.contentType() != null) {
      b.header("Content-Type", req.contentType());
    }
    b.method(req.method(), req.body() == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofByteArray(req.body()));
    try {
      return client.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return 599; // no answer at all: as bad as a 5xx
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static List<Endpoint> endpoints(List<String> jobs, List<String> nodes) {
    String json = "application/json";
    List<Endpoint> out = new ArrayList<>();
    out.add(new Endpoint("submit json", "alice-token", r -> new HostileRequests.Request("POST", "/v1/jobs", json,
        r.jsonBody(Map.of("script", SCRIPT, "options", Map.of("job-name", "x", "gpus", 1),
            "argv", List.of("--time=10"), "submit_dir", "/tmp", "script_name", "probe.sh",
            "environment", Map.of("A", "1"), "script_args", List.of("a"), "test_only", false)))));
    out.add(new Endpoint("submit script", "alice-token", r -> new HostileRequests.Request("POST",
        "/v1/jobs" + r.query(concat(SBATCH_OPTIONS, List.of("submit_dir", "script_name", "test_only"))),
        "text/x-shellscript", (r.chance(70) ? SCRIPT + "#SBATCH --" + r.pick(SBATCH_OPTIONS) + "=" + r.string() + "\n"
            : r.string()).getBytes(java.nio.charset.StandardCharsets.UTF_8))));
    out.add(new Endpoint("list jobs", "alice-token", r -> get("/v1/jobs"
        + r.query(List.of("state", "user", "account", "partition", "name", "job")))));
    out.add(new Endpoint("show job", "alice-token", r -> get("/v1/jobs/" + r.segment(jobs))));
    out.add(new Endpoint("cancel job", "alice-token", r -> new HostileRequests.Request("DELETE",
        "/v1/jobs/" + r.segment(jobs) + r.query(List.of("signal")), null, null)));
    for (String verb : List.of("hold", "release", "requeue", "pause")) {
      out.add(new Endpoint(verb, "alice-token", r -> new HostileRequests.Request("POST",
          "/v1/jobs/" + r.segment(jobs) + "/" + verb, r.chance(50) ? json : null, r.chance(30) ? r.jsonBody(Map.of())
              : null)));
    }
    out.add(new Endpoint("submit interactive", "alice-token", r -> new HostileRequests.Request("POST", "/v1/jobs",
        json, r.jsonBody(Map.of("interactive", true, "argv", List.of("-N1", "--time=10"), "submit_dir", "/tmp",
            "script_name", "sh", "environment", Map.of("A", "1"))))));
    out.add(new Endpoint("steps", "alice-token", r -> new HostileRequests.Request("POST",
        "/v1/jobs/" + r.segment(jobs) + "/steps", r.chance(50) ? json : null, r.chance(30) ? r.jsonBody(Map.of())
            : null)));
    out.add(new Endpoint("allocation environment", "alice-token",
        r -> get("/v1/jobs/" + r.segment(jobs) + "/environment")));
    out.add(new Endpoint("complete", "alice-token", r -> new HostileRequests.Request("POST",
        "/v1/jobs/" + r.segment(jobs) + "/complete", json, r.jsonBody(Map.of("exit_code", 1, "signal", 9)))));
    out.add(new Endpoint("output", "alice-token", r -> get("/v1/jobs/" + r.segment(jobs) + "/output"
        + r.query(List.of("stream", "offset")))));
    out.add(new Endpoint("checkpoints", "alice-token", r -> get("/v1/jobs/" + r.segment(jobs) + "/checkpoints")));
    out.add(new Endpoint("interrupt node", "admin-token", r -> new HostileRequests.Request("POST",
        "/v1/nodes/" + r.segment(List.of("node-3")) + "/interrupt", json,
        r.jsonBody(Map.of("notice_seconds", 60, "kind", "rebalance")))));
    out.add(new Endpoint("interruptions", "alice-token", r -> get("/v1/interruptions" + r.query(List.of("job", "since", "limit")))));
    out.add(new Endpoint("accounting", "alice-token", r -> get("/v1/accounting"
        + r.query(List.of("user", "account", "job", "start", "end", "state")))));
    out.add(new Endpoint("cost report", "admin-token", r -> get("/v1/reports/cost"
        + r.query(List.of("since", "until", "account", "by")))));
    out.add(new Endpoint("create reservation", "admin-token", r -> new HostileRequests.Request("POST",
        "/v1/reservations", json, r.jsonBody(Map.of("name", "probe", "start_time", "now+1hour", "duration", "60",
            "nodes", "node-1", "node_count", 1, "partition", "gpu", "users", List.of("alice"),
            "accounts", List.of("research"), "flags", List.of("MAINT"), "end_time", "2026-12-01T10:00")))));
    out.add(new Endpoint("show reservation", "alice-token", r -> get("/v1/reservations/"
        + r.segment(List.of("probe")))));
    out.add(new Endpoint("delete reservation", "admin-token", r -> new HostileRequests.Request("DELETE",
        "/v1/reservations/" + r.segment(List.of("probe")), null, null)));
    out.add(new Endpoint("prices", "alice-token", r -> get("/v1/prices" + r.query(List.of("offering")))));
    out.add(new Endpoint("spend report", "alice-token", r -> get("/v1/reports/spend" + r.query(List.of("points")))));
    out.add(new Endpoint("utilisation", "bob-token", r -> get("/v1/utilisation" + r.query(List.of("since")))));
    out.add(new Endpoint("dashboard", "alice-token", r -> get("/ui/" + r.segment(List.of("app.js")))));
    for (String path : List.of("/v1/nodes", "/v1/partitions", "/v1/reservations", "/v1/shares", "/v1/launches", "/v1/instances", "/v1/budgets",
        "/v1/whoami", "/prometheus", "/health")) {
      out.add(new Endpoint(path, "admin-token", r -> get(path + r.query(List.of("x")))));
    }
    String agent = "change-me-agent-token";
    out.add(new Endpoint("agent register", agent, r -> agentPost(r, "register", Map.of("name", r.pick(nodes),
        "address", "http://127.0.0.1:1", "gpus", 8, "gpu_type", "h100", "cpus", 32, "memory_mb", 1024,
        "features", List.of("a"), "placement_group", "pg-0", "running", List.of(jobs.get(0))))));
    out.add(new Endpoint("agent heartbeat", agent, r -> agentPost(r, "heartbeat",
        Map.of("name", r.pick(nodes), "running", List.of(jobs.get(0))))));
    out.add(new Endpoint("agent events", agent, r -> agentPost(r, "events", Map.of("name", r.pick(nodes),
        "events", List.of(Map.of("id", "1", "job", r.pick(jobs), "type", "exit", "exit_code", 0,
            "time", "2026-11-24T00:00:00Z"))))));
    out.add(new Endpoint("agent interruptions", agent, r -> agentPost(r, "interruptions", Map.of("name",
        r.pick(nodes), "source", "AWS_METADATA", "kind", "REBALANCE", "deadline", "2026-11-24T00:00:00Z"))));
    out.add(new Endpoint("agent checkpoints", agent, r -> agentPost(r, "checkpoints", Map.of("name", r.pick(nodes),
        "job", r.pick(jobs), "step", 1, "path", "/tmp/ckpt"))));
    out.add(new Endpoint("agent output", agent, r -> agentPost(r, "output", Map.of("job", r.pick(jobs),
        "stream", "stdout", "offset", 0, "data", "hello\n"))));
    return out;
  }

  private static HostileRequests.Request agentPost(HostileRequests r, String verb, Map<String, Object> valid) {
    return new HostileRequests.Request("POST", "/v1/agent/" + verb, "application/json", r.jsonBody(valid));
  }

  private static HostileRequests.Request get(String path) {
    return new HostileRequests.Request("GET", path, null, null);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
