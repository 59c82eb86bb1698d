package io.squall.providers.local;

import io.squall.agent.AgentMain;
import io.squall.agent.JavaCommand;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.ProviderException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Nodes as agent processes on this host: the embedded default, no cloud account needed. Each
 * node is one agent JVM with its own directory {@code BASE/<node>} (its {@code bin/}, its
 * {@code jobs/} and its {@code agent.log}); the agents register with the controller like any
 * node's would. GPUs are whatever the node template says (each agent is given {@code --gpus}, so
 * nvidia-smi does not decide, and several agents on one host each offer their own).
 *
 * <p>Thread-safe, though the controller calls it from one thread at a time.
 */
public final class LocalProvider implements NodeProvider {
  /** How long an agent gets to kill its jobs and exit after SIGTERM, before SIGKILL. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);

  /** Node names become directory names, so only names Slurm would accept pass. */
  private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

  private final Path baseDir;
  private final List<String> jvmArgs;
  private final Map<String, Process> agents = new TreeMap<>();

  /**
   * Agents live under {@code baseDir}, with {@link JavaCommand#QUICK_START}: a local agent is
   * mostly idle and mostly waiting on I/O, so a small, quick-starting JVM beats a fast one when
   * there are many of them on one host.
   */
  public LocalProvider(Path baseDir) {
    this(baseDir, JavaCommand.QUICK_START);
  }

  /** Agents live under {@code baseDir} and start with these JVM options (heap size, GC, agents). */
  public LocalProvider(Path baseDir, List<String> jvmArgs) {
    this.baseDir = baseDir.toAbsolutePath();
    this.jvmArgs = List.copyOf(jvmArgs);
  }

  @Override
  public String name() {
    return "local";
  }

  /**
   * Starts an agent process per node, its output appended to {@code BASE/<node>/agent.log}.
   * Returns once the processes run; each node is usable when its agent has registered.
   * Idempotent per node name: a node whose agent is alive is left alone, one whose agent died
   * is started again.
   *
   * @throws ProviderException when a node's name is unusable or its agent cannot be started;
   *     nodes started before it stay up
   */
  @Override
  public synchronized void launch(List<NodeLaunch> nodes) {
    for (NodeLaunch launch : nodes) {
      String name = launch.node().name();
      Process running = agents.get(name);
      if (running != null && running.isAlive()) {
        continue;
      }
      if (!NODE_NAME.matcher(name).matches()) {
        throw new ProviderException("node name '" + name + "' cannot name a directory; use letters, digits, '_', '.'"
            + " and '-'", null);
      }
      agents.put(name, start(launch));
    }
  }

  private Process start(NodeLaunch launch) {
    String name = launch.node().name();
    Path dir = baseDir.resolve(name);
    try {
      Files.createDirectories(dir);
      ProcessBuilder builder = new ProcessBuilder(AgentCommand.forNode(launch, dir, jvmArgs))
          .directory(dir.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("agent.log").toFile()));
      builder.environment().put(AgentMain.TOKEN_VARIABLE, launch.agentToken());
      return builder.start();
    } catch (IOException e) {
      throw new ProviderException("node " + name + ": cannot start its agent in " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Stops a node: its agent gets SIGTERM (it then kills its jobs' processes), and SIGKILL after
   * 10 s, as does anything the agent started that is still alive. Returns when the agent has
   * exited. Idempotent: an unknown or stopped node counts as done. Its directory is kept, for
   * its log.
   */
  @Override
  public void terminate(String nodeName) {
    Process agent;
    synchronized (this) {
      agent = agents.remove(nodeName);
    }
    if (agent != null) {
      stop(List.of(agent));
    }
  }

  /** The nodes whose agents are alive, in name order. */
  @Override
  public synchronized List<String> list() {
    agents.values().removeIf(p -> !p.isAlive());
    return new ArrayList<>(agents.keySet());
  }

  /** Stops every node this provider started, all at once, as {@link #terminate} does one. */
  @Override
  public void close() {
    List<Process> all;
    synchronized (this) {
      all = new ArrayList<>(agents.values());
      agents.clear();
    }
    stop(all);
  }

  private static void stop(List<Process> stopping) {
    List<ProcessHandle> started = new ArrayList<>();
    for (Process agent : stopping) {
      // Noted before the agent goes: once it has, its children are no one's descendants.
      agent.descendants().forEach(started::add);
      agent.destroy();
    }
    long deadline = System.nanoTime() + STOP_GRACE.toNanos();
    for (Process agent : stopping) {
      try {
        long left = deadline - System.nanoTime();
        if (!agent.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
          agent.destroyForcibly();
          agent.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        agent.destroyForcibly();
      }
    }
    started.forEach(ProcessHandle::destroyForcibly);
  }
}
