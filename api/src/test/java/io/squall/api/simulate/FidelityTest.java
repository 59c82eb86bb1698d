package io.squall.api.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.env.yaml.YamlPropertySourceLoader;
import io.squall.api.Controllers;
import io.squall.api.Http;
import io.squall.api.Poll;
import io.squall.core.model.Partition;
import io.squall.simulate.ElasticSimulation;
import io.squall.simulate.trace.JsonlReader;
import io.squall.simulate.trace.Trace;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator against the service it stands for. A small trace of real {@code sleep} jobs
 * (gangs of 1 to 4 nodes, whole and half nodes, a gang that blocks and jobs that backfill around
 * it) runs through the real controller, with local nodes running real processes, on one
 * configuration file; the jobs' history as the controller recorded it (submissions, runtimes,
 * limits) is then replayed as a {@code jsonl} trace by the what-if on the same file. Time is
 * compressed: runtimes of seconds, limits of minutes, a 200 ms scheduler interval.
 *
 * <p>What must agree: start order (a job the simulator starts more than {@link #SAME_INSTANT}
 * before another, the service starts first too; jobs started together may start in either order)
 * and each job's wait, submission to running, within {@link #TOLERANCE}. The tolerance covers
 * what the simulator does not model: the controller's cycle taking its time on a busy machine, an
 * agent's report of a job's end arriving after the end, the simulator's 250 ms grid.
 *
 * <p>What the simulator does not model at all is a local agent's own start-up (a JVM's seconds);
 * so a warm-up gang first brings all four nodes up in both, and the trace starts once they are
 * idle. Its waits are not compared.
 */
class FidelityTest {
  static final Duration TOLERANCE = Duration.ofSeconds(2);
  /** How long real processes get (agents starting, jobs running) on a busy machine. */
  static final Duration LONG = Duration.ofSeconds(180);
  static final Duration SAME_INSTANT = Duration.ofMillis(1000);
  /** In the simulation, when the trace starts after the warm-up's submission (the warm-up is done by then). */
  static final Duration SIMULATED_WARM_UP = Duration.ofSeconds(30);

  static final String CONFIG = """
      squall:
        cluster-name: fidelity
        provider: local
        scheduler-interval: 200ms
        local:
          zones: [local]
          on-demand-price: 12
        partitions:
          gpu:
            nodes: fid-[1-4]
            placement-groups: 1
            elastic: true
            suspend-time: 10m
            batch-window: 1s
      """;

  /**
   * A job of the trace: the job that must be running before it is submitted (null: right after
   * the one before it), its size, how long it sleeps, its limit. Submissions follow what the
   * service does, not a wall-clock pace: the simulator replays the times the controller recorded.
   */
  record Planned(String name, String after, int nodes, int gpusPerNode, double sleepSeconds, int limitMinutes) {}

  /**
   * a holds half the nodes; b, all four, waits for it (a reservation); c, d and e fit before b's
   * reservation by their limits and backfill; f and g start together when b ends; h waits for g;
   * i takes f's node when f ends, as its limit ends before h's reservation (on g's end by g's
   * longer limit). With g's limit equal to f's, h's reservation fell on f's node or on g's by which
   * of the two the cycle saw start first, a few milliseconds apart: i started at once in one
   * engine and after g in the other (a CI run beside another build).
   */
  static final List<Planned> TRACE = List.of(
      new Planned("a", null, 2, 8, 6, 2),
      new Planned("b", "a", 4, 8, 4, 3),
      new Planned("c", null, 1, 8, 2, 1),
      new Planned("d", null, 1, 4, 2, 1),
      new Planned("e", null, 1, 4, 1, 1),
      new Planned("f", "b", 1, 8, 2, 1),
      new Planned("g", null, 3, 8, 5, 2),
      new Planned("h", null, 2, 8, 2, 1),
      new Planned("i", "f", 1, 8, 1, 1));

  @TempDir Path dir;

  /** A job as the controller recorded it. */
  record Recorded(Planned planned, Instant submitted, Instant running, Instant ended, String account) {
    Duration waited() {
      return Duration.between(submitted, running);
    }
  }

  @Test
  void startOrderAndWaitsAgreeWithTheServiceRunningRealJobs() throws Exception {
    Path config = dir.resolve("squall.yml");
    Files.writeString(config, CONFIG);
    Map<String, Object> settings = Controllers.settings(dir.resolve("data"), null, "local");
    settings.putAll(new YamlPropertySourceLoader().read("fidelity", CONFIG.getBytes(StandardCharsets.UTF_8)));

    Recorded warmUp;
    List<Recorded> service = new ArrayList<>();
    try (Controllers.Running c = Controllers.start(settings)) {
      Http h = new Http(c.url());
      long warm = h.submit(script(4, 8, 1, 1));
      warmUp = recorded(h, warm, null);
      Poll.until("the four nodes to be idle", LONG, () ->
          List.of("fid-1", "fid-2", "fid-3", "fid-4").stream().allMatch(n -> h.nodeState(n).equals("IDLE")));
      Map<String, Long> ids = new LinkedHashMap<>();
      for (Planned p : TRACE) {
        if (p.after() != null) {
          long before = ids.get(p.after());
          Poll.until("job " + p.after() + " running", LONG, () -> h.jobState(before).equals("RUNNING") ? true : null);
        }
        ids.put(p.name(), h.submit(script(p.nodes(), p.gpusPerNode(), p.sleepSeconds(), p.limitMinutes())));
      }
      for (int k = 0; k < TRACE.size(); k++) {
        service.add(recorded(h, ids.get(TRACE.get(k).name()), TRACE.get(k)));
      }
    }

    // The history, as a trace: the warm-up first, the trace's jobs SIMULATED_WARM_UP after it,
    // at the offsets the controller recorded between them, each running as long as it ran there.
    Instant traceStart = service.get(0).submitted();
    StringBuilder jsonl = new StringBuilder(row("warm-up", warmUp.submitted(), warmUp));
    Instant simStart = warmUp.submitted().plus(SIMULATED_WARM_UP);
    for (Recorded r : service) {
      jsonl.append(row(r.planned().name(), simStart.plus(Duration.between(traceStart, r.submitted())), r));
    }
    Files.writeString(dir.resolve("history.jsonl"), jsonl);
    Trace trace = new JsonlReader().read(new StringReader(jsonl.toString()), "history.jsonl", false);
    ServiceConfig.Cluster cluster = ServiceConfig.read(config);
    List<Partition> partitions = WhatIfRun.partitions(cluster, null);
    WhatIf.Workload w = WhatIf.Workload.of(trace.jobs(), WhatIf.Workload.rooms(cluster, partitions));
    ElasticSimulation.Result r = WhatIfRun.run(cluster, partitions, WhatIfRun.Cloud.BUNDLED, w.jobs(), w.start(), 1,
        (simulated, submitted, ended) -> { });
    assertThat(r.jobsCompleted()).isEqualTo(TRACE.size() + 1);

    Map<String, Duration> simWait = new HashMap<>();
    Map<String, Duration> simStartAt = new HashMap<>();
    Map<String, Duration> serviceStartAt = new HashMap<>();
    StringBuilder table = new StringBuilder("job  service wait  simulated wait\n");
    for (ElasticSimulation.JobOutcome o : r.outcomes()) {
      if (o.id() == 1) {
        continue; // the warm-up
      }
      Recorded s = service.get((int) o.id() - 2);
      String name = s.planned().name();
      simWait.put(name, o.firstRun().minus(o.submitted()));
      simStartAt.put(name, o.firstRun());
      serviceStartAt.put(name, Duration.between(traceStart, s.running()));
      table.append(String.format(Locale.ROOT, "%-4s %10.3f s  %12.3f s%n", name, s.waited().toMillis() / 1e3,
          simWait.get(name).toMillis() / 1e3));
    }
    System.out.print(table); // the comparison, in the test's report
    for (Recorded s : service) {
      String name = s.planned().name();
      assertThat(s.waited()).as("%s's wait, service against simulator%n%s", name, table)
          .isBetween(simWait.get(name).minus(TOLERANCE), simWait.get(name).plus(TOLERANCE));
    }
    for (String x : simStartAt.keySet()) {
      for (String y : simStartAt.keySet()) {
        if (simStartAt.get(x).plus(SAME_INSTANT).compareTo(simStartAt.get(y)) < 0) {
          assertThat(serviceStartAt.get(x)).as("%s starts before %s in the simulator, so in the service%n%s", x, y,
              table).isLessThan(serviceStartAt.get(y));
        }
      }
    }
    // Not vacuous: the trace has waits, starts apart, and backfill (c starts before b).
    assertThat(simWait.get("b")).isGreaterThan(Duration.ofSeconds(3));
    assertThat(simStartAt.get("c")).isLessThan(simStartAt.get("b"));
  }

  private static String script(int nodes, int gpusPerNode, double sleepSeconds, int limitMinutes) {
    return String.format(Locale.ROOT, "#!/bin/bash\n#SBATCH -N %d --gres=gpu:%d -t %d --output=/dev/null\nsleep %s\n",
        nodes, gpusPerNode, limitMinutes, sleepSeconds);
  }

  /** The job once it has completed: when the controller recorded it submitted, running and completed. */
  private static Recorded recorded(Http h, long id, Planned planned) {
    JsonNode j = Poll.until("job " + id + " to complete", LONG, () -> {
      JsonNode job = h.get("alice-token", "/v1/jobs/" + id).json();
      return job.get("state").asText().equals("COMPLETED") ? job : null;
    });
    Instant running = null;
    Instant completed = null;
    for (JsonNode e : j.get("events")) {
      Instant at = Instant.parse(e.get("time").asText());
      if (running == null && e.get("state").asText().equals("RUNNING")) {
        running = at;
      }
      if (e.get("state").asText().equals("COMPLETED")) {
        completed = at;
      }
    }
    return new Recorded(planned, Instant.parse(j.get("submit_time").asText()), running, completed,
        j.get("account").asText());
  }

  /** One line of the jsonl trace: the job as recorded, submitted at {@code submit}. */
  private static String row(String id, Instant submit, Recorded r) throws Exception {
    Planned p = r.planned() == null ? new Planned(id, null, 4, 8, 1, 1) : r.planned();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("submit", submit.toString());
    m.put("account", r.account());
    m.put("nodes", p.nodes());
    m.put("gpus_per_node", p.gpusPerNode());
    m.put("runtime_s", Duration.between(r.running(), r.ended()).toMillis() / 1e3);
    m.put("time_limit_s", p.limitMinutes() * 60);
    return new ObjectMapper().writeValueAsString(m) + "\n";
  }
}
