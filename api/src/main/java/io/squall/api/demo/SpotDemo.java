package io.squall.api.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code bin/squall demo spot}: the spot story on a laptop, with nothing to set up. It starts a
 * controller with an elastic partition on the local provider (in a temporary directory, on a free
 * loopback port), submits {@code examples/spot-training.sh} as a 2-node gang, interrupts one of
 * its nodes once the job has checkpointed, and waits for the job to finish; then prints what
 * happened, in order, from the job's history, its checkpoint catalog and the interruption record.
 */
public final class SpotDemo {
  private static final Duration LIMIT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;
  private final PrintStream out;

  private SpotDemo(String base, PrintStream out) {
    this.base = base;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(Path.of(args.length > 0 ? args[0] : "examples/spot-training.sh"), System.out));
  }

  /** Runs the demo with {@code script}, printing to {@code out}; 0 when the job completed. */
  public static int run(Path script, PrintStream out) throws Exception {
    if (!Files.isReadable(script)) {
      out.println("squall demo spot: cannot read " + script);
      return 2;
    }
    Path data = Files.createTempDirectory("squall-spot-demo");
    Map<String, Object> settings = new HashMap<>();
    settings.put("micronaut.server.port", -1);
    settings.put("squall.data-dir", data.toString());
    settings.put("squall.provider", "local");
    settings.put("squall.local.boot-delay", "2s");
    settings.put("squall.scheduler-interval", "200ms");
    settings.put("squall.heartbeat-interval", "1s");
    settings.put("squall.partitions.gpu.nodes", "cloud-[1-4]");
    settings.put("squall.partitions.gpu.placement-groups", 2);
    settings.put("squall.partitions.gpu.elastic", true);
    settings.put("squall.partitions.gpu.batch-window", "500ms");
    settings.put("squall.partitions.gpu.interruption-margin", "5s");
    out.println("squall demo spot: a controller with 4 powered-down nodes (local provider, 2 s boot) in " + data);
    EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, settings);
    int code;
    try {
      code = new SpotDemo(server.getURL().toString(), out).run(Files.readString(script)
          .replace("#SBATCH --output=spot-training-%j.out", "#SBATCH --output=" + data.resolve("spot-training-%j.out")));
    } finally {
      server.getApplicationContext().close(); // stops the nodes' agents too
    }
    out.println("(everything is in " + data + ")");
    return code;
  }

  private int run(String script) throws Exception {
    Instant t0 = Instant.now();
    JsonNode submitted = send("POST", "/v1/jobs", "text/x-shellscript", script);
    String id = submitted.get("job_id").asText();
    out.println("submitted job " + id + " (examples/spot-training.sh: a 2-node training loop)");
    JsonNode running = await("job " + id + " to run", () -> job(id), j -> j.get("state").asText().equals("RUNNING"));
    await("a first checkpoint", () -> get("/v1/jobs/" + id + "/checkpoints"), c -> c.get("checkpoints").size() > 0);
    String victim = running.get("allocation").get(1).get("node").asText();
    out.println("interrupting " + victim + " with a 30 s notice (as EC2's 2-minute spot notice would)...");
    send("POST", "/v1/nodes/" + victim + "/interrupt", "application/json", "{\"notice_seconds\": 30}");
    JsonNode done = await("job " + id + " to finish", () -> job(id), j -> j.get("state").asText().matches(
        "COMPLETED|FAILED|CANCELLED|PREEMPTED|NODE_FAIL|TIMEOUT"));
    timeline(t0, id, done);
    String output = Files.readString(Path.of(done.get("stdout").asText()));
    out.println("\njob output:\n" + output.strip().indent(2));
    return done.get("state").asText().equals("COMPLETED") ? 0 : 1;
  }

  private record Line(Instant at, String text) {}

  private void timeline(Instant t0, String id, JsonNode job) throws Exception {
    List<Line> lines = new ArrayList<>();
    for (JsonNode e : job.get("events")) {
      lines.add(new Line(Instant.parse(e.get("time").asText()), pad(e.get("state").asText()) + e.get("reason").asText()));
    }
    for (JsonNode c : get("/v1/jobs/" + id + "/checkpoints").get("checkpoints")) {
      lines.add(new Line(Instant.parse(c.get("registered").asText()), pad("CHECKPOINT") + "step " + c.get("step").asText()
          + " registered from " + c.get("node").asText() + ": " + c.get("path").asText()));
    }
    for (JsonNode i : get("/v1/interruptions?job=" + id).get("interruptions")) {
      lines.add(new Line(Instant.parse(i.get("noticed_at").asText()), pad("NOTICE") + i.get("kind").asText() + " of "
          + i.get("node").asText() + " (" + i.get("source").asText() + "), machine goes at " + i.get("deadline").asText()));
      if (!i.get("handled_at").isNull()) {
        lines.add(new Line(Instant.parse(i.get("handled_at").asText()), pad("LOST WORK") + String.format(Locale.ROOT,
            "%.4f GPU-hours (%s)", i.get("lost_gpu_hours").asDouble(), i.get("outcome").asText())));
      }
    }
    lines.sort(Comparator.comparing(Line::at));
    out.println("\ntimeline of job " + id + " (seconds since submission):");
    for (Line l : lines) {
      out.printf(Locale.ROOT, "  %6.1f  %s%n", Duration.between(t0, l.at()).toMillis() / 1000.0, l.text());
    }
  }

  private static String pad(String label) {
    return String.format(Locale.ROOT, "%-12s", label);
  }

  private JsonNode job(String id) throws IOException, InterruptedException {
    return get("/v1/jobs/" + id);
  }

  @FunctionalInterface
  private interface Fetch {
    JsonNode get() throws IOException, InterruptedException;
  }

  private static JsonNode await(String what, Fetch fetch, Predicate<JsonNode> done) throws Exception {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode n = fetch.get();
      if (done.test(n)) {
        return n;
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("squall demo spot: gave up waiting for " + what + " after " + LIMIT);
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    return send("GET", path, null, null);
  }

  private JsonNode send(String method, String path, String type, String body) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base.replaceAll("/$", "") + path))
        .header("Authorization", "Bearer admin-token");
    if (body == null) {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      b.header("Content-Type", type).method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException(method + " " + path + ": HTTP " + r.statusCode() + ": " + r.body());
    }
    return JSON.readTree(r.body());
  }
}
