package io.squall.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.agent.Protocol.TaskRequest;
import io.squall.agent.Protocol.TaskSignal;
import io.squall.agent.StepLayout.NodeTasks;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One srun step in flight: a streamed {@code POST /jobs/{job}/tasks} per node, all at once,
 * their lines relayed to srun's stdout and stderr. A SIGINT or SIGTERM to srun (seen by its
 * shutdown hook, which cannot tell them apart) is forwarded to the tasks as SIGTERM.
 */
final class RunningStep {
  /**
   * The controller sends a job to its nodes one after another, so a fast script's srun can reach
   * a node before the node has the job: such a node is asked again for this long.
   */
  private static final Duration JOB_ARRIVAL_WAIT = Duration.ofSeconds(60);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(5);

  private final JobContext job;
  private final StepLayout layout;
  private final int step;
  private final boolean label;
  /** Slurm's --label pads every rank to the widest one's digits. */
  private final int labelWidth;
  private final PrintStream out;
  private final PrintStream err;
  private final HttpClient http;
  private final AtomicBoolean finished = new AtomicBoolean();
  private final Object results = new Object();
  /** The highest exit code of the step's tasks, which is srun's own, as in Slurm; 0 while none failed. */
  private int highestExit;
  private boolean broken;

  /** @param trust the client for the agents: trusting SQUALL_CA_FILE's CA when agents serve HTTPS */
  RunningStep(JobContext job, StepLayout layout, int step, boolean label, HttpClient.Builder trust, PrintStream out,
      PrintStream err) {
    this.http = trust.version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT).build();
    this.job = job;
    this.layout = layout;
    this.step = step;
    this.label = label;
    this.labelWidth = Integer.toString(Math.max(0, layout.ntasks() - 1)).length();
    this.out = out;
    this.err = err;
  }

  /** Runs the step to its end; answers srun's exit status. */
  int run(List<String> argv, Map<String, String> env, String workDir) {
    Thread forwarder = new Thread(() -> {
      if (!finished.get()) {
        signalAll(PosixSignal.TERM);
      }
    }, "srun-signal-forwarder");
    Runtime.getRuntime().addShutdownHook(forwarder);
    List<Thread> nodes = new ArrayList<>();
    String nodelist = layout.nodelist();
    for (NodeTasks node : layout.nodes()) {
      TaskRequest request = new TaskRequest(step, node.nodeid(), argv, env, workDir, node.tasks(), layout.ntasks(),
          nodelist);
      Thread t = new Thread(() -> runNode(node, request), "srun-" + node.node());
      t.start();
      nodes.add(t);
    }
    try {
      for (Thread t : nodes) {
        t.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    finished.set(true);
    try {
      Runtime.getRuntime().removeShutdownHook(forwarder);
    } catch (IllegalStateException e) {
      // Already shutting down.
    }
    out.flush();
    err.flush();
    synchronized (results) {
      return Math.max(highestExit, broken ? 1 : 0);
    }
  }

  private void runNode(NodeTasks node, TaskRequest request) {
    Set<Integer> pending = new LinkedHashSet<>();
    node.tasks().forEach(t -> pending.add(t.procid()));
    try {
      HttpResponse<InputStream> response = start(node, request);
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          if (!line.isBlank()) {
            relay(node, Json.MAPPER.readTree(line), pending);
          }
        }
      }
      for (int procid : pending) {
        failed(node.node() + ": task " + procid + ": lost: the agent's stream ended before the task did");
      }
    } catch (IOException | StepException e) {
      failed(node.node() + ": cannot run tasks: " + e.getMessage());
      // A step runs whole or not at all: the other nodes' tasks go too.
      signalAll(PosixSignal.KILL);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Posts the node's tasks; waits for a node that does not have the job yet. */
  private HttpResponse<InputStream> start(NodeTasks node, TaskRequest request)
      throws IOException, InterruptedException, StepException {
    HttpRequest post = HttpRequest.newBuilder(endpoint(node.node(), "/tasks"))
        .header("Authorization", "Bearer " + job.credential())
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(request)))
        .build();
    Instant deadline = Instant.now().plus(JOB_ARRIVAL_WAIT);
    long pause = 100;
    while (true) {
      HttpResponse<InputStream> response = http.send(post, HttpResponse.BodyHandlers.ofInputStream());
      if (response.statusCode() == 200) {
        return response;
      }
      String body;
      try (InputStream in = response.body()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      if (response.statusCode() != 404 || Instant.now().isAfter(deadline)) {
        throw new StepException("HTTP " + response.statusCode() + " " + body);
      }
      Thread.sleep(pause);
      pause = Math.min(2000, pause * 2);
    }
  }

  private void relay(NodeTasks node, JsonNode message, Set<Integer> pending) {
    int procid = message.path("procid").asInt();
    if (message.has("exit_code")) {
      pending.remove(procid);
      int code = message.path("exit_code").asInt();
      JsonNode signal = message.path("signal");
      if (signal.isInt() && signal.asInt() > 0) {
        failed(node.node() + ": task " + procid + ": " + describe(signal.asInt()), code);
      } else if (code != 0) {
        failed(node.node() + ": task " + procid + ": Exited with exit code " + code, code);
      }
      return;
    }
    PrintStream target = "stderr".equals(message.path("stream").asText()) ? err : out;
    String data = message.path("data").asText();
    synchronized (out) {
      target.print(label ? labelled(procid, data) : data);
      target.flush();
    }
  }

  /** Slurm's --label: every line prefixed by its task's rank, padded to the widest rank. */
  private String labelled(int procid, String data) {
    String prefix = String.format("%" + labelWidth + "d: ", procid);
    StringBuilder sb = new StringBuilder();
    int start = 0;
    while (start < data.length()) {
      int nl = data.indexOf('\n', start);
      int end = nl < 0 ? data.length() : nl + 1;
      sb.append(prefix).append(data, start, end);
      start = end;
    }
    return sb.toString();
  }

  private static String describe(int signal) {
    try {
      return PosixSignal.of(signal).description();
    } catch (IllegalArgumentException e) {
      return "Killed by signal " + signal;
    }
  }

  private void failed(String message, int exitCode) {
    synchronized (results) {
      highestExit = Math.max(highestExit, exitCode);
    }
    synchronized (out) {
      err.println("srun: error: " + message);
    }
  }

  private void failed(String message) {
    synchronized (results) {
      broken = true;
    }
    synchronized (out) {
      err.println("srun: error: " + message);
    }
  }

  /** Sends the signal to the step's tasks on every node; waits a little, never long. */
  private void signalAll(PosixSignal signal) {
    List<CompletableFuture<?>> sent = new ArrayList<>();
    for (NodeTasks node : layout.nodes()) {
      try {
        HttpRequest post = HttpRequest.newBuilder(endpoint(node.node(), "/tasks/signal"))
            .timeout(SIGNAL_TIMEOUT)
            .header("Authorization", "Bearer " + job.credential())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(
                Json.MAPPER.writeValueAsBytes(new TaskSignal(step, signal.name()))))
            .build();
        sent.add(http.sendAsync(post, HttpResponse.BodyHandlers.discarding()));
      } catch (IOException | StepException e) {
        // Best effort: the node's agent is gone or was never there.
      }
    }
    try {
      CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0]))
          .get(SIGNAL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      // Best effort, as above.
    }
  }

  private URI endpoint(String node, String suffix) throws StepException {
    String base = job.agent(node).toString();
    if (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(base + "/jobs/" + job.jobKey() + suffix);
  }
}
