package io.squall.agent;

import io.squall.agent.AgentArgs.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

/**
 * The node agent's process: {@code java -cp ... io.squall.agent.AgentMain --controller URL
 * --token TOKEN --name NAME --work-dir DIR ...}. Runs until it is stopped (SIGTERM), then kills
 * its jobs' processes. Exit status 2 for a bad command line, 1 when it cannot start,
 * {@value #EXIT_SUPERSEDED} when another agent registered for its node and it stood down (a
 * supervisor must not start it again: {@code RestartPreventExitStatus=3} under systemd).
 */
public final class AgentMain {
  /** The exit status of an agent another agent superseded: not to be restarted. */
  public static final int EXIT_SUPERSEDED = 3;
  /**
   * Written in its work directory (with why) by an agent that stood down, so that a supervisor
   * that cannot see exit statuses (the local provider) does not start it again either.
   */
  public static final String SUPERSEDED_FILE = "superseded";

  private AgentMain() {}

  public static void main(String[] args) throws InterruptedException {
    Agent agent;
    try {
      agent = start(Arrays.asList(args), System.getenv(), System.err);
    } catch (StartFailure e) {
      System.exit(e.exitCode);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(agent::close, "agent-shutdown"));
    try {
      agent.superseded().get(); // until then it runs; a SIGTERM ends it through the hook
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
    System.exit(EXIT_SUPERSEDED);
  }

  /** The agent did not start; the reason has been printed. */
  static final class StartFailure extends Exception {
    private static final long serialVersionUID = 1L;
    final int exitCode;

    StartFailure(int exitCode, String message) {
      super(message);
      this.exitCode = exitCode;
    }
  }

  /** Starts an agent from a command line, printing why when it cannot. */
  static Agent start(List<String> args, Map<String, String> env, PrintStream err) throws StartFailure {
    AgentConfig config;
    try {
      config = AgentArgs.parse(args, env, () -> probeGpus(env, err));
    } catch (UsageException e) {
      err.println("squall-agent: error: " + e.getMessage());
      err.println(AgentArgs.USAGE);
      throw new StartFailure(2, e.getMessage());
    }
    try {
      return Agent.start(config, err);
    } catch (IOException e) {
      err.println("squall-agent: error: cannot start: " + e.getMessage());
      throw new StartFailure(1, e.getMessage());
    }
  }

  private static Optional<GpuProbe.Gpus> probeGpus(Map<String, String> env, PrintStream err) {
    Optional<GpuProbe.Gpus> probed = GpuProbe.detect(env.get("PATH"));
    probed.ifPresent(g -> err.println("squall-agent: nvidia-smi reports " + g.count() + " GPUs of type " + g.type()));
    return probed;
  }
}
