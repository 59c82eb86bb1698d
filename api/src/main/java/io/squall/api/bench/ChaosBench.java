package io.squall.api.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.agent.ControllerAddresses;
import io.squall.agent.OrphanSweep;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.InetAddress;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code bin/squall bench chaos}: a real controller (its own JVM, H2, the local provider's agent
 * processes) runs a mixed workload of short real jobs, several hundred of them, while the
 * controller is killed with -9 at random points (and started again on its port, as systemd
 * would), agents are killed with -9 (the controller's provider starts them again), and 30 % of
 * an elastic partition's launches fail. Then it counts what must never happen:
 *
 * <ul>
 *   <li>{@code acknowledged_lost}: a job the API acknowledged (201) that the controller no longer knows;
 *   <li>{@code double_starts}: a job two copies of which ran at the same time (each run holds an
 *       exclusive {@code flock} on a file named after its job: a second copy cannot take it);
 *   <li>{@code orphan_instances}: local nodes with a second agent, or agents left after the
 *       controller stopped;
 *   <li>{@code leaked_processes}: job processes alive after the controller stopped.
 * </ul>
 * Jobs that did not finish in time are reported as {@code unfinished}. {@code takeover_ms_*} is
 * how long each controller kill left the cluster without a controller that takes writes: from the
 * kill to the first acknowledged submission after it. {@code slow_requests} lists the bench's
 * requests to one controller that took 5 s or more to be answered or to fail (a 30 s takeover is
 * a request that went unanswered until its timeout): to which address, and how long after a kill.
 *
 * <p>With {@code --controllers 2} (high availability; needs {@code --postgres JDBC_URL}, whose
 * schema it empties) two controllers share the database: a controller kill kills the leader, the
 * standby takes over, and the killed one is started again at once, as a standby. Before each such
 * kill a job is started on an elastic node and that node interrupted (3 s notice), so that an
 * interruption is under way when the leader dies ({@code interruptions_under_way} counts them). The bench's own client follows the leader as the CLI does.
 */
public final class ChaosBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "chaos-user-token";
  private static final String ADMIN = "chaos-admin-token";
  /** Stands for the controller in a request until it is sent to the one that leads. */
  private static final String SOME_CONTROLLER = "http://controller";

  /** What to run. {@code controllerKills} and {@code agentKills} happen at random points while jobs run. */
  public record Options(int jobs, int controllerKills, int agentKills, double launchFailureRate, long seed,
      Duration deadline, int controllers, String postgres) {
    public Options {
      if (controllers < 1 || controllers > 1 && postgres == null) {
        throw new IllegalArgumentException("--controllers: 1, or 2 and more with --postgres JDBC_URL (HA needs PostgreSQL)");
      }
    }

    /** One controller on H2. */
    public Options(int jobs, int controllerKills, int agentKills, double launchFailureRate, long seed, Duration deadline) {
      this(jobs, controllerKills, agentKills, launchFailureRate, seed, deadline, 1, null);
    }

    static Options parse(List<String> args) {
      Map<String, String> o = BenchMain.options(args, "bench chaos [--jobs N] [--controller-kills N] [--agent-kills N]"
          + " [--failure-rate R] [--seed S] [--minutes M] [--controllers 2 --postgres JDBC_URL]");
      return new Options(Integer.parseInt(o.getOrDefault("jobs", "400")),
          Integer.parseInt(o.getOrDefault("controller-kills", "4")),
          Integer.parseInt(o.getOrDefault("agent-kills", "4")),
          Double.parseDouble(o.getOrDefault("failure-rate", "0.3")),
          Long.parseLong(o.getOrDefault("seed", "1")),
          Duration.ofMinutes(Long.parseLong(o.getOrDefault("minutes", "20"))),
          Integer.parseInt(o.getOrDefault("controllers", "1")), o.get("postgres"));
    }
  }

  /** The counts; all but {@code jobs} and {@code kills} must be 0. */
  public record Result(int controllers, int kills, int jobs, int acknowledgedLost, int doubleStarts,
      int orphanInstances, int leakedProcesses, int unfinished, List<Long> takeoverMillis, int interruptions,
      List<String> slowRequests) {
    public long takeoverMedianMillis() {
      List<Long> sorted = takeoverMillis.stream().sorted().toList();
      return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
    }

    public long takeoverMaxMillis() {
      return takeoverMillis.stream().mapToLong(Long::longValue).max().orElse(0);
    }

    public String json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("controllers", controllers);
      m.put("kills", kills);
      m.put("jobs", jobs);
      m.put("acknowledged_lost", acknowledgedLost);
      m.put("double_starts", doubleStarts);
      m.put("orphan_instances", orphanInstances);
      m.put("leaked_processes", leakedProcesses);
      m.put("unfinished", unfinished);
      m.put("takeover_ms_median", takeoverMedianMillis());
      m.put("takeover_ms_max", takeoverMaxMillis());
      m.put("interruptions_under_way", interruptions);
      m.put("slow_requests", slowRequests);
      try {
        return JSON.writeValueAsString(m);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private final Options options;
  private final Path dir;
  private final int[] ports;
  private final ControllerAddresses addresses;
  private final Random random;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
  /** The jobs submitted to time takeovers: checked for loss, not counted as the workload. */
  private final Set<Long> probes = ConcurrentHashMap.newKeySet();
  private final List<Long> takeovers = new ArrayList<>();
  /**
   * Requests to one controller that took longer than {@link #SLOW} to answer or fail: which
   * controller, what, how long, how it ended. A takeover of 30 s (the request timeout) means one
   * went unanswered; this says where.
   */
  private final List<String> slowRequests = Collections.synchronizedList(new ArrayList<>());
  private static final Duration SLOW = Duration.ofSeconds(5);
  /** Leader kills made while an interruption was under way. */
  private final AtomicInteger interruptions = new AtomicInteger();
  private final Process[] controllers;
  private int started;
  /** When the last controller kill was made (System.nanoTime), 0 before any. */
  private volatile long lastKill;

  private ChaosBench(Options options, Path dir) {
    this.options = options;
    this.dir = dir;
    this.ports = new int[options.controllers()];
    this.controllers = new Process[options.controllers()];
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < ports.length; i++) {
      do {
        ports[i] = restartablePort();
      } while (i > 0 && ports[i] == ports[i - 1]);
      urls.add(url(i));
    }
    this.addresses = ControllerAddresses.parse(String.join(",", urls));
    this.random = new Random(options.seed());
  }

  private String url(int controller) {
    return "http://127.0.0.1:" + ports[controller];
  }

  private boolean ha() {
    return controllers.length > 1;
  }

  public static void main(String[] args) throws Exception {
    Options options = BenchMain.parseOrExit(args, Options::parse);
    Path dir = Files.createTempDirectory("squall-chaos");
    Result r = run(options, dir);
    System.out.println(r.json());
    System.exit(r.acknowledgedLost() + r.doubleStarts() + r.orphanInstances() + r.leakedProcesses() == 0 ? 0 : 1);
  }

  /** Runs the workload in {@code dir} (it keeps the logs) and counts. */
  public static Result run(Options options, Path dir) throws IOException, InterruptedException {
    return new ChaosBench(options, dir).run();
  }

  private Result run() throws IOException, InterruptedException {
    Files.createDirectories(dir.resolve("locks"));
    Files.createDirectories(dir.resolve("work"));
    if (ha()) {
      emptySchema(options.postgres());
    }
    for (int i = 0; i < controllers.length; i++) {
      startController(i);
    }
    awaitNodes();
    AtomicInteger kills = new AtomicInteger();
    Thread chaos = new Thread(() -> chaos(kills), "chaos");
    chaos.start();
    submitAll();
    chaos.join();
    int unfinished = awaitAllEnded();
    int lost = 0;
    List<Long> all = new ArrayList<>(acknowledged);
    all.addAll(probes);
    for (long id : all) {
      if (get("/v1/jobs/" + id).status() == 404) {
        lost++;
      }
    }
    int orphans = secondAgents();
    stopControllers();
    orphans += agentProcesses().size();
    int leaked = leakedJobProcesses();
    int doubles = Files.exists(dir.resolve("doubles"))
        ? new TreeSet<>(Files.readAllLines(dir.resolve("doubles"))).size() : 0;
    return new Result(controllers.length, kills.get(), acknowledged.size(), lost, doubles, orphans, leaked, unfinished,
        List.copyOf(takeovers), interruptions.get(), List.copyOf(slowRequests));
  }

  /** Empties the database's schema: the bench starts from a fresh cluster, as it does on H2. */
  private static void emptySchema(String jdbcUrl) {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(jdbcUrl);
        java.sql.Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS public CASCADE");
      s.execute("CREATE SCHEMA public");
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("cannot empty the schema of " + jdbcUrl + ": " + e.getMessage(), e);
    }
  }

  /** Controller {@code i}'s settings; with HA, the controllers' settings differ only in their port and address. */
  private ControllerSettings settings(int i) {
    ControllerSettings s = ControllerSettings.of(ports[i], dir.resolve("data"), "local").withYaml("""
        squall:
          agent-token: chaos-agent-%d
          scheduler-interval: 200ms
          heartbeat-interval: 1s
          kill-wait: 2s
          reconcile-interval: 5s
          local:
            launch-failure-rate: %s
            failure-seed: %d
          partitions:
            gpu:
              default: true
              nodes: node-[1-4]
              placement-groups: 1
            burst:
              nodes: burst-[1-4]
              gpus: 8
              gpu-type: h100
              cpus: 32
              memory-mb: 262144
              placement-groups: 1
              elastic: true
              instance-types: [local]
              spot: on-demand
              suspend-time: 20s
              batch-window: 1s
              retry-backoff: 1s
              unavailable-for: 5s
              max-launch-attempts: 50
          users:
            alice:
              token: %s
            bob:
              token: chaos-bob-token
            admin:
              token: %s
        """.formatted(options.seed(), options.launchFailureRate(), options.seed(), TOKEN, ADMIN));
    return !ha() ? s : s.postgres(options.postgres()).with("squall.controller-url", addresses.toString())
        .highlyAvailable(url(i));
  }

  private void startController(int i) throws IOException {
    int n = ++started;
    controllers[i] = settings(i).startJvm(dir.resolve("chaos-" + i + ".yml"), List.of(), ha() ? "INFO" : "WARN",
        dir.resolve("controller-" + n + ".log"));
  }

  /** Standbys first: stopped first, the leader would hand the cluster to one of them. */
  private void stopControllers() throws InterruptedException {
    int leader = leader();
    for (int i = 0; i < controllers.length; i++) {
      if (i != leader) {
        stop(controllers[i]);
      }
    }
    stop(controllers[Math.max(leader, 0)]);
  }

  private static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
    }
  }

  /** Which controller leads (answers {@code /ha} as the leader), or -1 while none does. */
  private int leader() {
    for (int i = 0; i < controllers.length; i++) {
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url(i) + "/ha"))
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200 && JSON.readTree(r.body()).path("role").asText().equals("leader")) {
          return i;
        }
      } catch (IOException down) {
        // not this one
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return -1;
      }
    }
    return -1;
  }

  private void awaitNodes() throws InterruptedException {
    await("the controller and its 4 nodes", Duration.ofMinutes(3), () -> {
      Answer a = get("/v1/nodes");
      return a.status() == 200 && a.json().get("nodes").findValuesAsText("state").stream()
          .filter(s -> s.equals("IDLE") || s.equals("MIXED") || s.equals("ALLOCATED")).count() >= 4;
    });
  }

  /** Kills at random points while the jobs run: the controller (then starts it again) or an agent. */
  private void chaos(AtomicInteger kills) {
    List<String> order = new ArrayList<>();
    for (int i = 0; i < options.controllerKills(); i++) {
      order.add("controller");
    }
    for (int i = 0; i < options.agentKills(); i++) {
      order.add("agent");
    }
    java.util.Collections.shuffle(order, random);
    try {
      for (String what : order) {
        Thread.sleep(2000 + random.nextInt(6000));
        if (what.equals("controller")) {
          killController();
          kills.incrementAndGet();
          awaitNodes();
        } else {
          List<ProcessHandle> agents = agentProcesses();
          if (!agents.isEmpty()) {
            ProcessHandle victim = agents.get(random.nextInt(agents.size()));
            victim.destroyForcibly();
            victim.onExit().get(30, TimeUnit.SECONDS);
            kills.incrementAndGet();
          }
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException("chaos stopped: " + e, e);
    }
  }

  /**
   * Kills the leader with -9 and times how long until a write is acknowledged again. Without HA the
   * killed controller is started again at once (its restart is the recovery); with HA the standby
   * takes over, and the killed one is started again as the next standby once it has: on separate
   * machines, as HA controllers run, its supervisor's restart does not take the standby's CPU, and
   * here on 2 shared cores it did (takeovers of 11.6 s beside a build, 4 to 6 s without). With HA
   * an elastic node running a job is interrupted first, so that the new leader inherits an
   * interruption under way.
   */
  private void killController() throws IOException, InterruptedException {
    int victim = 0;
    if (ha()) {
      interruptABusyElasticNode();
      Thread.sleep(random.nextInt(1500));
      await("a leader", Duration.ofMinutes(2), () -> leader() >= 0);
      victim = leader();
    }
    long killed = System.nanoTime();
    lastKill = killed;
    controllers[victim].destroyForcibly().waitFor();
    if (!ha()) {
      startController(victim);
    }
    String probe = job(-1);
    while (true) {
      Answer a = post("/v1/jobs", probe);
      if (a.status() == 201) {
        takeovers.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
        probes.add(a.json().get("job_id").asLong());
        break;
      }
      Thread.sleep(50);
    }
    if (ha()) {
      startController(victim);
    }
  }

  /**
   * Starts a job on the elastic partition, waits until it runs, and interrupts its node with a
   * 3 s notice: the leader is killed while the drain, checkpoint signal and requeue are under way.
   */
  private void interruptABusyElasticNode() throws InterruptedException {
    long id = acknowledge(job("chaos-interrupted", "burst", 8, 1));
    probes.add(id);
    String[] node = new String[1];
    await("job " + id + " to run on an elastic node", Duration.ofMinutes(2), () -> {
      Answer a = get("/v1/jobs/" + id);
      node[0] = a.status() == 200 && a.json().path("state").asText().equals("RUNNING")
          ? a.json().path("nodes").asText() : null;
      return node[0] != null;
    });
    Answer a = send(HttpRequest.newBuilder(URI.create(SOME_CONTROLLER + "/v1/nodes/" + node[0] + "/interrupt"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"notice_seconds\": 3}")), ADMIN);
    if (a.status() == 202) {
      interruptions.incrementAndGet();
    }
  }

  /** Submits until the API acknowledges (201); the job's id. */
  private long acknowledge(String job) throws InterruptedException {
    while (true) {
      Answer a = post("/v1/jobs", job);
      if (a.status() == 201) {
        return a.json().get("job_id").asLong();
      }
      Thread.sleep(200);
    }
  }

  /** Submits every job, retrying while the controller is down: only a 201 counts as acknowledged. */
  private void submitAll() throws InterruptedException {
    for (int i = 0; i < options.jobs(); i++) {
      acknowledged.add(acknowledge(job(i)));
      Thread.sleep(20);
    }
  }

  /** A short real job; one in four on the elastic partition. {@code i} -1: a probe. */
  private String job(int i) {
    int seconds = 1 + random.nextInt(4);
    int gpus = 1 + random.nextInt(2);
    return job(i < 0 ? "chaos-probe" : "chaos-" + i, i % 4 == 3 ? "burst" : "gpu", seconds, gpus);
  }

  /** A real job; each run holds its job's lock file, so a second copy running at once is caught. */
  private String job(String name, String partition, int seconds, int gpus) {
    String script = "#!/bin/bash\n"
        + "exec 9>>" + dir.resolve("locks") + "/$SLURM_JOB_ID\n"
        + "if ! flock -n 9; then echo $SLURM_JOB_ID >> " + dir.resolve("doubles") + "; exit 3; fi\n"
        + "sleep " + seconds + "\n"
        + "echo done\n";
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("script", script);
    m.put("submit_dir", dir.resolve("work").toString());
    m.put("argv", List.of("--gpus=" + gpus, "--partition=" + partition, "--output=/dev/null", "--job-name=" + name));
    try {
      return JSON.writeValueAsString(m);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits for every acknowledged job to end; answers how many did not in time. */
  private int awaitAllEnded() throws InterruptedException {
    Instant deadline = Instant.now().plus(options.deadline());
    while (true) {
      Answer a = get("/v1/jobs?state=PENDING,CONFIGURING,RUNNING,COMPLETING");
      if (a.status() == 200) {
        int open = a.json().get("jobs").size();
        if (open == 0 || Instant.now().isAfter(deadline)) {
          for (JsonNode j : a.json().get("jobs")) {
            System.err.println("chaos: job " + j.get("job_id").asText() + " did not end: " + j.get("state").asText()
                + " (" + j.get("reason").asText() + ") on " + j.get("nodes").asText());
          }
          return open;
        }
      }
      Thread.sleep(1000);
    }
  }

  /** Nodes with more than one live agent. */
  private int secondAgents() {
    Map<String, Integer> perNode = new HashMap<>();
    for (ProcessHandle p : agentProcesses()) {
      String cmd = commandLine(p.pid());
      int at = cmd.indexOf("--name ");
      perNode.merge(at < 0 ? "?" : cmd.substring(at + 7).split(" ")[0], 1, Integer::sum);
    }
    return perNode.values().stream().mapToInt(n -> n - 1).sum();
  }

  private List<ProcessHandle> agentProcesses() {
    String nodes = dir.resolve("data/nodes").toString();
    return ProcessHandle.allProcesses().filter(p -> {
      String cmd = commandLine(p.pid());
      return cmd.contains("io.squall.agent.AgentMain") && cmd.contains(nodes);
    }).toList();
  }

  /** Processes still marked as jobs of this run's agents. */
  private int leakedJobProcesses() throws IOException {
    int leaked = 0;
    try (var nodes = Files.list(dir.resolve("data/nodes"))) {
      for (Path node : nodes.toList()) {
        leaked += OrphanSweep.find(node).size();
      }
    }
    return leaked;
  }

  private static String commandLine(long pid) {
    try {
      return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ');
    } catch (IOException | SecurityException gone) {
      return "";
    }
  }

  private record Answer(int status, JsonNode json) {}

  private Answer get(String path) {
    return send(HttpRequest.newBuilder(URI.create(SOME_CONTROLLER + path)).GET(), ADMIN);
  }

  private Answer post(String path, String json) {
    return send(HttpRequest.newBuilder(URI.create(SOME_CONTROLLER + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)), TOKEN);
  }

  /** Sends {@code b} (addressed to {@link #SOME_CONTROLLER}) to the leading controller, as the CLI does. */
  private Answer send(HttpRequest.Builder b, String token) {
    String path = b.build().uri().toString().substring(SOME_CONTROLLER.length());
    b.header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(30));
    try {
      HttpResponse<String> r = addresses.send(base -> timed(base, path, () -> http.send(
          b.uri(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString())));
      JsonNode json = r.body().isEmpty() ? null : JSON.readTree(r.body());
      return new Answer(r.statusCode(), json);
    } catch (IOException e) {
      return new Answer(0, null); // the controller is down (or was killed mid-answer): not acknowledged
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(0, null);
    }
  }

  private interface Call {
    HttpResponse<String> call() throws IOException, InterruptedException;
  }

  /** {@code call}, to controller {@code base}, noted in {@link #slowRequests} if it took long. */
  private HttpResponse<String> timed(URI base, String path, Call call) throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    String outcome = "interrupted"; // unless answered or failed
    try {
      HttpResponse<String> r = call.call();
      outcome = "answered " + r.statusCode();
      return r;
    } catch (IOException e) {
      outcome = e.getClass().getSimpleName();
      throw e;
    } finally {
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      if (ms >= SLOW.toMillis()) {
        slowRequests.add(String.format("%s to %s: %s after %d ms, sent %s after the last kill", path, base,
            outcome, ms, lastKill == 0 ? "-" : TimeUnit.NANOSECONDS.toMillis(t0 - lastKill) + " ms"));
      }
    }
  }

  private interface Check {
    boolean done() throws Exception;
  }

  private static void await(String what, Duration limit, Check check) throws InterruptedException {
    Instant deadline = Instant.now().plus(limit);
    while (true) {
      try {
        if (check.done()) {
          return;
        }
      } catch (Exception notYet) {
        // keep waiting
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("timed out waiting for " + what);
      }
      Thread.sleep(250);
    }
  }

  /**
   * A port below the kernel's ephemeral range (32768 and up), so that no agent's or client's
   * socket takes it while the controller is down between a kill and its restart.
   */
  public static int restartablePort() {
    Random r = new Random();
    for (int attempt = 0; attempt < 100; attempt++) {
      int p = 20_000 + r.nextInt(12_000);
      try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
        return p;
      } catch (IOException taken) {
        // another one
      }
    }
    throw new IllegalStateException("no free port between 20000 and 32000");
  }
}
