package io.squall.api.bench;

import com.sun.net.httpserver.HttpServer;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.runtime.server.EmbeddedServer;
import io.squall.api.agents.AgentReports;
import io.squall.api.scheduling.SchedulingCycle;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.store.StoreText;
import io.squall.core.model.GpuGrant;
import io.squall.core.time.ManualClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * {@code squall bench history}: whether a scheduling cycle and a heartbeat cost more when the
 * database holds a long history of finished jobs. A controller (in this JVM, on an H2 file, on
 * the manual clock) starts on a database with {@code --finished} jobs that ended days ago, its
 * nodes register (their agent is a stub that takes every launch), {@code --pending} jobs are
 * submitted through the HTTP API, and after one cycle that fills the cluster it times
 * {@code --cycles} cycles and a heartbeat from every node before each. Run it with
 * {@code --finished 0} and with a million, and with {@code --min-job-age 0} (every finished job
 * kept in memory, as before MinJobAge was honoured) to see what history costs.
 */
public final class HistoryBench {
  private static final String USER_TOKEN = "alice-token";
  private static final int INSERT_BATCH = 5_000;

  /** What to run. */
  record Options(int finished, int nodes, int pending, int cycles, long seed, Duration minJobAge) {
    static Options parse(List<String> args) {
      Map<String, String> o = BenchMain.options(args, "bench history [--finished N] [--nodes N] [--pending N]"
          + " [--cycles N] [--seed S] [--min-job-age SECONDS]");
      Options p = new Options(Integer.parseInt(o.getOrDefault("finished", "1000000")),
          Integer.parseInt(o.getOrDefault("nodes", "1000")), Integer.parseInt(o.getOrDefault("pending", "5000")),
          Integer.parseInt(o.getOrDefault("cycles", "7")), Long.parseLong(o.getOrDefault("seed", "1")),
          Duration.ofSeconds(Long.parseLong(o.getOrDefault("min-job-age", "300"))));
      if (p.finished < 0 || p.nodes < 1 || p.pending < 1 || p.cycles < 1 || p.minJobAge.isNegative()) {
        throw new IllegalArgumentException("bench history: --nodes, --pending and --cycles must be at least 1,"
            + " --finished and --min-job-age at least 0");
      }
      return p;
    }
  }

  private final Options options;
  private final Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  private HistoryBench(Options options, Path dir) {
    this.options = options;
    this.dir = dir;
  }

  public static void main(String[] args) throws Exception {
    Options options = BenchMain.parseOrExit(args, Options::parse);
    Path dir = Files.createTempDirectory("squall-history");
    // The controller's start-up banner goes to standard error: standard output is the figures.
    java.io.PrintStream out = System.out;
    System.setOut(System.err);
    out.println(run(options, dir));
    System.exit(0);
  }

  /** Runs the bench in {@code dir} and answers its line of figures. */
  public static String run(List<String> args, Path dir) throws Exception {
    return run(Options.parse(args), dir);
  }

  private static String run(Options options, Path dir) throws Exception {
    return new HistoryBench(options, dir).run();
  }

  private String run() throws Exception {
    HttpServer agent = stubAgent();
    try {
      if (options.finished > 0) {
        try (ApplicationContext first = start()) {
          // The bean is the contextual proxy of Micronaut Data's transactions: the pool itself is underneath.
          insertHistory(DelegatingDataSource.unwrapDataSource(first.getBean(DataSource.class)),
              first.getBean(InstantSource.class).instant());
        }
      }
      long loadBegan = System.nanoTime();
      try (ApplicationContext c = start()) {
        double loadSeconds = (System.nanoTime() - loadBegan) / 1e9;
        return measure(c, agent, loadSeconds);
      }
    } finally {
      agent.stop(0);
    }
  }

  private ApplicationContext start() {
    ControllerSettings s = ControllerSettings.of(-1, dir.resolve("data"), "none")
        .with("micronaut.server.host", "127.0.0.1")
        .with("squall.ticks", "manual")
        .with("squall.node-timeout", "1h")
        .with("squall.min-job-age", options.minJobAge.toSeconds() + "s")
        .with("squall.partitions.gpu.nodes", "node-[1-" + options.nodes + "]");
    return ApplicationContext.run(EmbeddedServer.class, s.map()).getApplicationContext();
  }

  /** Jobs that ran for an hour and ended between 2 and 30 days ago, each with its script, as the controller writes them. */
  private void insertHistory(DataSource ds, Instant now) throws SQLException {
    Random random = new Random(options.seed);
    try (Connection c = ds.getConnection();
        PreparedStatement job = c.prepareStatement("INSERT INTO jobs (job_key, job_id, own_job_id, task_id, user_name, account,"
            + " qos, state, held, partition_name, pending_tasks, allocation, start_time, end_time, exit_code,"
            + " exit_signal, restart_count, ending, credential, version, not_before, eligible_since, limit_signalled)"
            + " VALUES (?, ?, ?, NULL, 'alice', 'research', 'normal', ?, FALSE, 'gpu', '', ?, ?, ?, ?, NULL, 0, NULL,"
            + " NULL, 1, NULL, ?, FALSE)");
        PreparedStatement script = c.prepareStatement("INSERT INTO job_scripts (job_id, script_name, script,"
            + " options, script_args, environment, submit_dir, submit_time) VALUES (?, 'train.sh', ?, '[]', '[]',"
            + " '{}', '/tmp', ?)")) {
      boolean auto = c.getAutoCommit();
      c.setAutoCommit(false);
      for (int id = 1; id <= options.finished; id++) {
        Instant end = now.minus(Duration.ofMinutes(2 * 24 * 60 + random.nextInt(28 * 24 * 60)));
        Instant start = end.minus(Duration.ofHours(1));
        int gpus = 1 << random.nextInt(4);
        List<Integer> indices = new ArrayList<>();
        for (int g = 0; g < gpus; g++) {
          indices.add(g);
        }
        String node = "node-" + (1 + random.nextInt(options.nodes));
        boolean failed = random.nextInt(10) == 0;
        job.setString(1, Integer.toString(id));
        job.setLong(2, id);
        job.setLong(3, id);
        job.setString(4, failed ? "FAILED" : "COMPLETED");
        job.setString(5, StoreText.allocation(List.of(new GpuGrant(node, indices, 4 * gpus, 0))));
        job.setTimestamp(6, Timestamp.from(start));
        job.setTimestamp(7, Timestamp.from(end));
        job.setInt(8, failed ? 1 : 0);
        job.setTimestamp(9, Timestamp.from(start));
        job.addBatch();
        script.setLong(1, id);
        script.setString(2, "#!/bin/bash\n#SBATCH --gres=gpu:" + gpus + " --time=2:00:00\npython train.py\n");
        script.setTimestamp(3, Timestamp.from(start.minusSeconds(60)));
        script.addBatch();
        if (id % INSERT_BATCH == 0 || id == options.finished) {
          job.executeBatch();
          script.executeBatch();
          c.commit();
        }
      }
      c.setAutoCommit(auto);
    }
  }

  private String measure(ApplicationContext c, HttpServer agent, double loadSeconds) throws Exception {
    ManualClock clock = (ManualClock) c.getBean(InstantSource.class);
    AgentReports reports = c.getBean(AgentReports.class);
    SchedulingCycle cycle = c.getBean(SchedulingCycle.class);
    StateWriter writer = c.getBean(StateWriter.class);
    String address = "http://127.0.0.1:" + agent.getAddress().getPort();
    for (int n = 1; n <= options.nodes; n++) {
      reports.register(new AgentReports.Registration("node-" + n, address, 8, "h100", 64, 1_000_000, List.of(),
          null, List.of())).get();
    }
    submitQueue(c.getBean(EmbeddedServer.class).getURL().toString());
    clock.advance(Duration.ofSeconds(1));
    int started = cycle.cycle(clock.instant());
    List<Double> cycles = new ArrayList<>();
    List<Double> heartbeats = new ArrayList<>();
    for (int i = 0; i < options.cycles; i++) {
      clock.advance(Duration.ofSeconds(1));
      Map<String, List<String>> held = held(writer);
      for (int n = 1; n <= options.nodes; n++) {
        String name = "node-" + n;
        long began = System.nanoTime();
        reports.heartbeat(name, address, held.getOrDefault(name, List.of())).get();
        heartbeats.add((System.nanoTime() - began) / 1e6);
      }
      long began = System.nanoTime();
      cycle.cycle(clock.instant());
      cycles.add((System.nanoTime() - began) / 1e6);
    }
    System.gc();
    long heapMb = (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20;
    return String.format(Locale.ROOT, "history bench: %d finished jobs in the database (min-job-age %d s), %d nodes,"
        + " %d pending (%d started by the first cycle): start-up %.1f s, %d jobs in memory; cycle_ms median %.1f"
        + " max %.1f; heartbeat_ms median %.2f max %.2f; heap_mb %d",
        options.finished, options.minJobAge.toSeconds(), options.nodes, options.pending, started, loadSeconds,
        writer.state().jobs().size(), median(cycles), Collections.max(cycles), median(heartbeats),
        Collections.max(heartbeats), heapMb);
  }

  /** Jobs of 1 to 8 GPUs, with one in ten a 2- to 4-node gang of whole nodes, from the seed. */
  private void submitQueue(String url) throws IOException, InterruptedException {
    Random random = new Random(options.seed + 1);
    for (int i = 0; i < options.pending; i++) {
      String shape = random.nextInt(10) == 0
          ? "-N " + (2 + random.nextInt(3)) + " --gres=gpu:8 --exclusive"
          : "--gres=gpu:" + (1 << random.nextInt(4));
      String script = "#!/bin/bash\n#SBATCH " + shape + " --time=" + (10 + random.nextInt(600))
          + " --output=/dev/null\nsleep 3600\n";
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/v1/jobs"))
          .header("Authorization", "Bearer " + USER_TOKEN).header("Content-Type", "text/x-shellscript")
          .POST(HttpRequest.BodyPublishers.ofString(script)).build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 201) {
        throw new IllegalStateException("submission refused: " + r.statusCode() + " " + r.body());
      }
    }
  }

  /** What each node's agent holds: the jobs the controller placed there (the stub ran every launch). */
  private static Map<String, List<String>> held(StateWriter writer) {
    Map<String, List<String>> out = new TreeMap<>();
    for (StoredJob j : writer.state().holdingJobs()) {
      for (GpuGrant g : j.job().allocation()) {
        out.computeIfAbsent(g.node(), k -> new ArrayList<>()).add(j.key().toString());
      }
    }
    return out;
  }

  /** An agent for every node that takes every call: launches succeed, nothing runs. */
  private static HttpServer stubAgent() throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.createContext("/", ex -> {
      try (ex) {
        ex.getRequestBody().readAllBytes();
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(200, body.length);
        ex.getResponseBody().write(body);
      }
    });
    s.start();
    return s;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
