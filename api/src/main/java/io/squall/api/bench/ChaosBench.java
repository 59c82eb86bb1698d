package io.squall.api.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.agent.JavaCommand;
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
 * Jobs that did not finish in time are reported as {@code unfinished}.
 */
public final class ChaosBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "chaos-user-token";
  private static final String ADMIN = "chaos-admin-token";

  /** What to run. {@code controllerKills} and {@code agentKills} happen at random points while jobs run. */
  public record Options(int jobs, int controllerKills, int agentKills, double launchFailureRate, long seed,
      Duration deadline) {
    static Options parse(List<String> args) {
      Map<String, String> o = new HashMap<>();
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (!a.startsWith("--") || i + 1 >= args.size()) {
          throw new IllegalArgumentException("usage: bench chaos [--jobs N] [--controller-kills N] [--agent-kills N]"
              + " [--failure-rate R] [--seed S] [--minutes M]; not '" + a + "'");
        }
        o.put(a.substring(2), args.get(++i));
      }
      return new Options(Integer.parseInt(o.getOrDefault("jobs", "400")),
          Integer.parseInt(o.getOrDefault("controller-kills", "4")),
          Integer.parseInt(o.getOrDefault("agent-kills", "4")),
          Double.parseDouble(o.getOrDefault("failure-rate", "0.3")),
          Long.parseLong(o.getOrDefault("seed", "1")),
          Duration.ofMinutes(Long.parseLong(o.getOrDefault("minutes", "20"))));
    }
  }

  /** The counts; all but {@code jobs} and {@code kills} must be 0. */
  public record Result(int kills, int jobs, int acknowledgedLost, int doubleStarts, int orphanInstances,
      int leakedProcesses, int unfinished) {
    public String json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kills", kills);
      m.put("jobs", jobs);
      m.put("acknowledged_lost", acknowledgedLost);
      m.put("double_starts", doubleStarts);
      m.put("orphan_instances", orphanInstances);
      m.put("leaked_processes", leakedProcesses);
      m.put("unfinished", unfinished);
      try {
        return JSON.writeValueAsString(m);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private final Options options;
  private final Path dir;
  private final int port;
  private final Random random;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
  private volatile Process controller;
  private int started;

  private ChaosBench(Options options, Path dir) {
    this.options = options;
    this.dir = dir;
    this.port = restartablePort();
    this.random = new Random(options.seed());
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(List.of(args));
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
    writeConfig();
    startController();
    awaitNodes();
    AtomicInteger kills = new AtomicInteger();
    Thread chaos = new Thread(() -> chaos(kills), "chaos");
    chaos.start();
    submitAll();
    chaos.join();
    int unfinished = awaitAllEnded();
    int lost = 0;
    for (long id : acknowledged) {
      if (get("/v1/jobs/" + id).status() == 404) {
        lost++;
      }
    }
    int orphans = secondAgents();
    stopController();
    orphans += agentProcesses().size();
    int leaked = leakedJobProcesses();
    int doubles = Files.exists(dir.resolve("doubles"))
        ? new TreeSet<>(Files.readAllLines(dir.resolve("doubles"))).size() : 0;
    return new Result(kills.get(), acknowledged.size(), lost, doubles, orphans, leaked, unfinished);
  }

  private void writeConfig() throws IOException {
    Path data = dir.resolve("data");
    String yml = """
        micronaut:
          server:
            port: %d
        squall:
          data-dir: %s
          provider: local
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
        """.formatted(port, data, options.seed(), options.launchFailureRate(), options.seed(), TOKEN, ADMIN);
    Path file = dir.resolve("chaos.yml");
    Files.writeString(file, yml);
    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
  }

  private void startController() throws IOException {
    int n = ++started;
    controller = new ProcessBuilder(JavaCommand.executable(), "-Dmicronaut.config.files=" + dir.resolve("chaos.yml"),
        "-DSQUALL_LOG_LEVEL=WARN", "-cp", JavaCommand.classPath(), "io.squall.api.Application")
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("controller-" + n + ".log").toFile())
        .start();
  }

  private void stopController() throws InterruptedException {
    controller.destroy();
    if (!controller.waitFor(60, TimeUnit.SECONDS)) {
      controller.destroyForcibly().waitFor();
    }
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
          controller.destroyForcibly().waitFor();
          kills.incrementAndGet();
          startController();
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

  /** Submits every job, retrying while the controller is down: only a 201 counts as acknowledged. */
  private void submitAll() throws InterruptedException {
    for (int i = 0; i < options.jobs(); i++) {
      String body = job(i);
      while (true) {
        Answer a = post("/v1/jobs", body);
        if (a.status() == 201) {
          acknowledged.add(a.json().get("job_id").asLong());
          break;
        }
        Thread.sleep(200);
      }
      Thread.sleep(20);
    }
  }

  /** A short real job; one in four on the elastic partition. Each run holds its job's lock file. */
  private String job(int i) {
    int seconds = 1 + random.nextInt(4);
    String script = "#!/bin/bash\n"
        + "exec 9>>" + dir.resolve("locks") + "/$SLURM_JOB_ID\n"
        + "if ! flock -n 9; then echo $SLURM_JOB_ID >> " + dir.resolve("doubles") + "; exit 3; fi\n"
        + "sleep " + seconds + "\n"
        + "echo done\n";
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("script", script);
    m.put("submit_dir", dir.resolve("work").toString());
    m.put("argv", List.of("--gpus=" + (1 + random.nextInt(2)), "--partition=" + (i % 4 == 3 ? "burst" : "gpu"),
        "--output=/dev/null", "--job-name=chaos-" + i));
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
    return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET(), ADMIN);
  }

  private Answer post(String path, String json) {
    return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)), TOKEN);
  }

  private Answer send(HttpRequest.Builder b, String token) {
    try {
      HttpResponse<String> r = http.send(b.header("Authorization", "Bearer " + token)
          .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      JsonNode json = r.body().isEmpty() ? null : JSON.readTree(r.body());
      return new Answer(r.statusCode(), json);
    } catch (IOException e) {
      return new Answer(0, null); // the controller is down (or was killed mid-answer): not acknowledged
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(0, null);
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
