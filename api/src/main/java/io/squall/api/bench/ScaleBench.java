package io.squall.api.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.squall.agent.ProcessCpu;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code squall bench scale}: the controller at scale. A real controller in its own JVM (the
 * launcher's flags, nothing else) gets {@code --jobs} whole-node jobs submitted over the API, then
 * {@code --nodes} static 8-GPU nodes whose agents are simulated by this process (plain HTTP:
 * registrations, and heartbeats at the controller's interval from one thread pool, one in flight
 * per agent; one small HTTP server takes every launch and remembers what runs where, so heartbeats
 * report it as a real agent would): as many jobs run as there are nodes, the rest wait. It prints the
 * controller's memory (VmRSS), how long {@code GET /v1/jobs} (what squeue asks) takes, and the
 * controller's CPU per wall second with every agent heartbeating and, for comparison, with the
 * heartbeats paused (shorter than the node timeout, so no node is lost).
 */
public final class ScaleBench {
  private static final String AGENT_TOKEN = "scale-agent-token";
  private static final String USER_TOKEN = "scale-alice-token";
  private static final Pattern LAUNCHED = Pattern.compile("\"job\"\\s*:\\s*\"([^\"]+)\"");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

  /**
   * @param window how long the controller's CPU is measured with heartbeats (and, up to 20 s, without)
   * @param agentsDuringSubmit whether the agents register and heartbeat before the queue is
   *     submitted (their heartbeats then compete with the burst for the writer) rather than after
   * @param jvmFlags the flags the launcher gives {@code squall server}, given to the controller too
   * @param linger how long the controller stays up, its agents beating, once the figures are taken
   *     (to time a real client against it); zero by default
   */
  public record Options(int nodes, int jobs, Duration window, int clients, boolean agentsDuringSubmit,
      List<String> jvmFlags, Duration linger) {
    private static final String AGENTS_DURING_SUBMIT = "--agents-during-submit";

    static Options parse(List<String> args) {
      // The one option without a value; the others are BenchMain's --name value pairs.
      boolean agentsDuringSubmit = args.contains(AGENTS_DURING_SUBMIT);
      Map<String, String> o = BenchMain.options(args.stream().filter(a -> !a.equals(AGENTS_DURING_SUBMIT)).toList(),
          "bench scale [--nodes N] [--jobs N] [--window SECONDS] [--clients N] [" + AGENTS_DURING_SUBMIT
              + "] [--linger SECONDS]");
      Set<String> known = Set.of("nodes", "jobs", "window", "clients", "linger");
      o.keySet().stream().filter(k -> !known.contains(k)).findFirst().ifPresent(k -> {
        throw new IllegalArgumentException("bench scale: unknown option --" + k + "; use --nodes, --jobs, --window,"
            + " --clients, " + AGENTS_DURING_SUBMIT + ", --linger");
      });
      Options p = new Options(Integer.parseInt(o.getOrDefault("nodes", "10000")),
          Integer.parseInt(o.getOrDefault("jobs", "100000")),
          Duration.ofSeconds(Long.parseLong(o.getOrDefault("window", "60"))),
          Integer.parseInt(o.getOrDefault("clients", "8")), agentsDuringSubmit, launcherFlags(),
          Duration.ofSeconds(Long.parseLong(o.getOrDefault("linger", "0"))));
      if (p.nodes < 1 || p.jobs < 1 || p.window.toSeconds() < 1 || p.clients < 1 || p.linger.isNegative()) {
        throw new IllegalArgumentException("bench scale: --nodes, --jobs, --window and --clients must be at least 1,"
            + " --linger at least 0");
      }
      return p;
    }

    /** What bin/squall gives the controller ({@code squall.server-jvm-flags}, set by the launcher). */
    static List<String> launcherFlags() {
      String flags = System.getProperty("squall.server-jvm-flags", "").trim();
      return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
    }
  }

  /**
   * The figures; CPU in cores (CPU seconds per wall second). {@code squeue_ms} is the request the
   * CLI's default squeue makes, {@code job_list_full_ms} the list with every field, {@code
   * squeue_cli_ms} the real {@code bin/squall squeue} (null when the bench was not launched by it).
   */
  public record Result(int nodes, int jobs, double submitPerS, int running, int pending, long rssMb, long peakRssMb,
      SqueueTimings.Figures squeue, double heartbeatsPerS, int heartbeatErrors, int reregistrations,
      double coresWithHeartbeats, double coresWithout, Integer downAfterSubmit, HeartbeatTimes.Worst beats) {
    public int squeueJobs() {
      return squeue.squeueJobs();
    }

    public String json() {
      return String.format(Locale.ROOT, "{\"nodes\":%d,\"jobs\":%d,\"submit_per_s\":%.0f,"
          + "\"nodes_down_after_submit\":%s,\"running\":%d,"
          + "\"pending\":%d,\"rss_mb\":%d,\"peak_rss_mb\":%d,\"squeue_ms\":%.0f,\"squeue_jobs\":%d,"
          + "\"job_list_full_ms\":%.0f,\"squeue_cli_ms\":%s,\"heartbeats_per_s\":%.0f,"
          + "\"heartbeat_errors\":%d,\"reregistrations\":%d,\"max_heartbeat_gap_s\":%.1f,"
          + "\"agents_gap_over_timeout\":%d,\"max_heartbeat_wait_s\":%.1f,\"controller_cores_heartbeats\":%.3f,"
          + "\"controller_cores_quiet\":%.3f,\"heartbeat_cores\":%.3f}", nodes, jobs, submitPerS, downAfterSubmit,
          running, pending, rssMb, peakRssMb, squeue.squeueMs(), squeue.squeueJobs(), squeue.fullListMs(),
          squeue.cliMs() == null ? "null" : String.format(Locale.ROOT, "%.0f", squeue.cliMs()), heartbeatsPerS,
          heartbeatErrors, reregistrations, beats.gapSeconds(), beats.agentsOverTimeout(), beats.waitSeconds(),
          coresWithHeartbeats, coresWithout, coresWithHeartbeats - coresWithout);
    }
  }

  private final Options options;
  private final Path dir;
  private final int port = ChaosBench.restartablePort();
  /** What each simulated agent holds: the jobs the controller launched on its node and has not taken back. */
  private final Map<String, Set<String>> held = new ConcurrentHashMap<>();
  private final AtomicLong heartbeats = new AtomicLong();
  private final Map<String, AtomicBoolean> inFlight = new ConcurrentHashMap<>();
  private final AtomicInteger heartbeatErrors = new AtomicInteger();
  /** Agents that registered again because the controller had taken their node for lost (a heartbeat answered 404). */
  private final AtomicInteger reregistrations = new AtomicInteger();
  /** The controller's default node timeout, which the bench keeps. */
  private final HeartbeatTimes beatTimes = new HeartbeatTimes(Duration.ofSeconds(30));
  private final ExecutorService agentThreads = Executors.newFixedThreadPool(2);
  /**
   * The heartbeats' HttpClient runs its part of each exchange here. Left to its default (a cached
   * pool, a new thread whenever none is idle), 2,000 beats a second against a controller that
   * answers late grew the bench to 1,600 threads and 3 GB, and the bench then took more of the
   * 2 cores than the controller it measures (README: Benchmarks, round 8).
   */
  private final ExecutorService beatThreads = Executors.newFixedThreadPool(4, r -> {
    Thread t = new Thread(r, "scale-heartbeats");
    t.setDaemon(true);
    return t;
  });
  private final HttpClient beatClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).executor(beatThreads).build();
  private final ThreadLocal<HttpClient> connection = ThreadLocal.withInitial(() ->
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build());
  private volatile boolean beating = true;
  private Process controller;

  private ScaleBench(Options options, Path dir) {
    this.options = options;
    this.dir = dir;
  }

  public static void main(String[] args) throws Exception {
    // HttpClient.sendAsync completes every answer through CompletableFuture's default executor; on
    // 2 cores the common pool's parallelism is 1, and then that executor starts a new thread for
    // each task: 2,000 heartbeat answers a second became 2,000 thread starts, and a run with the
    // agents beating through the submissions had 1,700 of the client's threads waiting to start one,
    // the answers late and the agents' next beats skipped past the node timeout (README: Benchmarks).
    // A real agent has its own process. Read once, when the common pool is first used: set first.
    if (System.getProperty(COMMON_POOL_PARALLELISM) == null) {
      System.setProperty(COMMON_POOL_PARALLELISM, "4");
    }
    Options options = BenchMain.parseOrExit(args, Options::parse);
    Path dir = Files.createTempDirectory("squall-scale");
    Result result = run(options, dir);
    System.out.println(result.json());
    // The controller's database holds every job (about 1 GB at 100,000): kept only when the run
    // failed, or lost nodes (its log says why).
    if (result.reregistrations() > 0 || (result.downAfterSubmit() != null && result.downAfterSubmit() > 0)) {
      System.err.println("nodes were lost; the controller's data and log are kept in " + dir);
      System.exit(0);
    }
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
    System.exit(0);
  }

  /** Runs the bench in {@code dir}, which keeps the controller's configuration, data and log. */
  public static Result run(Options options, Path dir) throws Exception {
    return new ScaleBench(options, dir).run();
  }

  private Result run() throws Exception {
    HttpServer agents = simulatedAgents();
    ScheduledExecutorService beats = Executors.newScheduledThreadPool(2);
    try {
      startController();
      awaitController();
      // By default the queue first, then the agents come up (as after a controller restart); with
      // --agents-during-submit the agents beat through the burst, and no node may be lost to it.
      String agentBase = "http://127.0.0.1:" + agents.getAddress().getPort();
      if (options.agentsDuringSubmit) {
        register(agentBase, beats);
      }
      long began = System.nanoTime();
      submit();
      double submitPerS = options.jobs / ((System.nanoTime() - began) / 1e9);
      Integer downAfterSubmit = null;
      if (options.agentsDuringSubmit) {
        downAfterSubmit = nodesDown();
      } else {
        register(agentBase, beats);
      }
      int expectRunning = Math.min(options.nodes, options.jobs);
      int running = awaitRunning(expectRunning);
      // Paused for less than the node timeout (30 s by default): no node is lost meanwhile.
      beating = false;
      double without = cores(options.window.compareTo(Duration.ofSeconds(20)) < 0 ? options.window : Duration.ofSeconds(20));
      beatTimes.paused();
      beating = true;
      long hb0 = heartbeats.get();
      double with = cores(options.window);
      double perS = (heartbeats.get() - hb0) / (double) options.window.toSeconds();
      SqueueTimings.Figures squeue = new SqueueTimings(url(""), USER_TOKEN, connection.get()).measure(SqueueTimings.launcher(), dir);
      long rssMb = memoryKb(controller.pid(), "VmRSS") / 1024;
      long peakRssMb = memoryKb(controller.pid(), "VmHWM") / 1024;
      if (!options.linger.isZero()) {
        System.err.printf("the controller stays up for %d s: SQUALL_URL=%s SQUALL_TOKEN=%s%n", options.linger.toSeconds(),
            url(""), USER_TOKEN);
        Thread.sleep(options.linger.toMillis());
      }
      return new Result(options.nodes, options.jobs, submitPerS, running, options.jobs - running, rssMb, peakRssMb,
          squeue, perS, heartbeatErrors.get(), reregistrations.get(), with, without, downAfterSubmit,
          beatTimes.worst());
    } finally {
      beats.shutdownNow();
      if (controller != null) {
        controller.destroy();
        if (!controller.waitFor(60, TimeUnit.SECONDS)) {
          controller.destroyForcibly().waitFor();
        }
      }
      agents.stop(0);
      agentThreads.shutdownNow();
      beatThreads.shutdownNow();
    }
  }

  private void startController() throws IOException {
    String yml = """
        squall:
          agent-token: %s
          partitions:
            gpu:
              default: true
              nodes: node-[1-%d]
              gpus: 8
              gpu-type: h100
              cpus: 32
              memory-mb: 262144
              placement-groups: %d
          users:
            alice:
              token: %s
        """.formatted(AGENT_TOKEN, options.nodes, Math.max(1, options.nodes / 32), USER_TOKEN);
    controller = ControllerSettings.of(port, dir.resolve("data"), "none").withYaml(yml)
        .startJvm(dir.resolve("scale.yml"), options.jvmFlags, "WARN", dir.resolve("controller.log"));
  }

  private void awaitController() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (System.nanoTime() < deadline) {
      if (!controller.isAlive()) {
        throw new IllegalStateException("the controller exited with " + controller.exitValue() + "; see "
            + dir.resolve("controller.log"));
      }
      try {
        get("/v1/partitions", USER_TOKEN);
        return;
      } catch (IOException | IllegalStateException e) {
        Thread.sleep(500);
      }
    }
    throw new IllegalStateException("the controller did not answer within 3 minutes; see " + dir.resolve("controller.log"));
  }

  /**
   * Registers every node from the client threads; each agent then beats at the interval the
   * controller answered, from its registration on (a node silent for the node timeout goes DOWN).
   */
  private void register(String agentBase, ScheduledExecutorService beats) throws Exception {
    parallel(options.nodes, n -> {
      String node = "node-" + (n + 1);
      held.put(node, ConcurrentHashMap.newKeySet());
      inFlight.put(node, new AtomicBoolean());
      JsonNode answer = post("/v1/agent/register", AGENT_TOKEN, registration(node, agentBase), 200);
      long intervalMs = answer.path("heartbeat_seconds").asLong(5) * 1000;
      beats.scheduleAtFixedRate(() -> heartbeat(node, agentBase), intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    });
  }

  /**
   * One agent's heartbeat, sent without waiting (each real agent has its own connection, so a slow
   * answer delays no other agent); a 404 (the controller took the node for lost) makes the agent
   * register again, as {@code ControllerLink} does.
   */
  private void heartbeat(String node, String agentBase) {
    AtomicBoolean busy = inFlight.get(node);
    // A real agent waits for its answer before its next beat: one heartbeat in flight per agent.
    if (!beating || !busy.compareAndSet(false, true)) {
      return;
    }
    String body;
    try {
      body = JSON.writeValueAsString(Map.of("name", node, "address", agentBase + "/" + node,
          "running", List.copyOf(held.get(node))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    HeartbeatTimes.Beat beat = beatTimes.beat(node, body);
    beatClient.sendAsync(request("/v1/agent/heartbeat", AGENT_TOKEN, beat.body()), HttpResponse.BodyHandlers.ofString())
        .whenComplete((r, failure) -> {
          beat.answered();
          busy.set(false);
          if (failure != null || r.statusCode() != 200) {
            heartbeatErrors.incrementAndGet();
          } else {
            heartbeats.incrementAndGet();
          }
          if (r != null && r.statusCode() == 404) {
            reregistrations.incrementAndGet();
            beatClient.sendAsync(request("/v1/agent/register", AGENT_TOKEN, registration(node, agentBase)),
                HttpResponse.BodyHandlers.discarding());
          }
        });
  }

  private String registration(String node, String agentBase) {
    try {
      return JSON.writeValueAsString(Map.of("name", node, "address", agentBase + "/" + node, "gpus", 8,
          "gpu_type", "h100", "cpus", 32, "memory_mb", 262144, "running", List.copyOf(held.get(node))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whole-node jobs of an hour, as alice, from the client threads, each with an environment of about
   * 1 KB (sbatch exports the caller's whole environment; a login shell's is 1 to 4 KB).
   */
  private void submit() throws Exception {
    Map<String, String> environment = new LinkedHashMap<>();
    for (int i = 0; i < 16; i++) {
      environment.put("SCALE_BENCH_VARIABLE_" + i, "/opt/software/toolchain-" + i + "/bin:/usr/local/bin:/usr/bin");
    }
    String body = JSON.writeValueAsString(Map.of("script", "#!/bin/bash\n#SBATCH --exclusive\nsrun python train.py\n",
        "options", Map.of("job-name", "scale", "gpus-per-node", "8", "nodes", "1", "time", "60",
            "output", "/dev/null", "error", "/dev/null"),
        "submit_dir", "/tmp", "environment", environment));
    parallel(options.jobs, i -> post("/v1/jobs", USER_TOKEN, body, 201));
  }

  /** How many nodes the controller has DOWN now. */
  private int nodesDown() throws IOException, InterruptedException {
    int down = 0;
    for (JsonNode n : get("/v1/nodes", USER_TOKEN).path("nodes")) {
      down += n.path("state").asText().startsWith("DOWN") ? 1 : 0;
    }
    return down;
  }

  /** Waits until the cycles have started {@code expected} jobs (or 10 minutes); answers how many run. */
  private int awaitRunning(int expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    int running = 0;
    while (System.nanoTime() < deadline) {
      running = get("/v1/jobs?state=RUNNING", USER_TOKEN).path("jobs").size();
      if (running >= expected) {
        break;
      }
      Thread.sleep(2000);
    }
    return running;
  }

  /** The controller's CPU seconds per wall second over {@code window}. */
  private double cores(Duration window) throws IOException, InterruptedException {
    double cpu0 = ProcessCpu.seconds(controller.pid());
    long t0 = System.nanoTime();
    Thread.sleep(window.toMillis());
    return (ProcessCpu.seconds(controller.pid()) - cpu0) / ((System.nanoTime() - t0) / 1e9);
  }

  /** A memory figure of the process in KiB: {@code VmRSS} (resident now) or {@code VmHWM} (its peak). */
  static long memoryKb(long pid, String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no " + field + " in /proc/" + pid + "/status");
  }

  /** An HTTP server for every simulated agent: {@code /NODE/jobs} takes a launch, {@code DELETE /NODE/jobs/KEY} forgets it. */
  private HttpServer simulatedAgents() throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.setExecutor(agentThreads);
    s.createContext("/", this::agentCall);
    s.start();
    return s;
  }

  private void agentCall(HttpExchange ex) throws IOException {
    try (ex) {
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String[] path = ex.getRequestURI().getPath().split("/");
      // /NODE/jobs, /NODE/jobs/KEY[/signal]
      Set<String> jobs = path.length > 1 ? held.get(path[1]) : null;
      if (jobs != null && path.length == 3 && ex.getRequestMethod().equals("POST")) {
        Matcher m = LAUNCHED.matcher(body);
        if (m.find()) {
          jobs.add(m.group(1));
        }
      } else if (jobs != null && path.length == 4 && ex.getRequestMethod().equals("DELETE")) {
        jobs.remove(path[3]);
      }
      // It runs no process: a deleted job is over at once.
      byte[] answer = (ex.getRequestMethod().equals("DELETE") ? "{\"over\":true}" : "{}").getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, answer.length);
      ex.getResponseBody().write(answer);
    }
  }

  /** A call that needs the calling thread's connection. */
  @FunctionalInterface
  private interface Call {
    void run(int i) throws Exception;
  }

  /** Runs {@code count} calls spread over the client threads, each thread with its own keep-alive connection. */
  private void parallel(int count, Call call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(options.clients);
    AtomicInteger next = new AtomicInteger();
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int c = 0; c < options.clients; c++) {
        workers.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
            call.run(i);
          }
          return null;
        }));
      }
      for (Future<?> w : workers) {
        w.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private JsonNode post(String path, String token, String body, int expected) throws IOException, InterruptedException {
    HttpResponse<String> r = connection.get().send(request(path, token, body), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != expected) {
      throw new IllegalStateException("POST " + path + " answered " + r.statusCode() + ": " + r.body());
    }
    return JSON.readTree(r.body());
  }

  private HttpRequest request(String path, String token, String body) {
    return request(path, token, HttpRequest.BodyPublishers.ofString(body));
  }

  private HttpRequest request(String path, String token, HttpRequest.BodyPublisher body) {
    return HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(body).build();
  }

  private JsonNode get(String path, String token) throws IOException, InterruptedException {
    HttpResponse<String> r = connection.get().send(HttpRequest.newBuilder(URI.create(url(path)))
        .timeout(Duration.ofSeconds(120)).header("Authorization", "Bearer " + token).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("GET " + path + " answered " + r.statusCode() + ": " + r.body());
    }
    return JSON.readTree(r.body());
  }

  private String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }
}
