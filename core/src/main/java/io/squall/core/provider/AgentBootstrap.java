package io.squall.core.provider;

import io.squall.core.model.Node;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The start-up script (EC2 user data, GCE {@code startup-script} metadata) that turns a fresh
 * cloud machine into a Squall node: it finds out which node of its launch it is, then starts the
 * agent with that node's name, shape and token. One launch makes several machines from one
 * script, so the script holds every node of the launch and each machine picks its own by a key
 * it can read locally: its launch index on EC2 ({@code ami-launch-index}), its instance name on
 * GCE. The tokens are therefore readable by every machine of the same launch (one gang, one
 * tenant), never by another launch's.
 *
 * <p>The agent is also told which cloud it is on ({@code --interruptions aws|gcp}), so that it
 * watches that cloud's metadata service for spot interruption notices and reports them. The
 * node image must therefore carry an agent that knows the option: an older one refuses to start.
 */
public final class AgentBootstrap {
  /** Where node images built for Squall install the agent's launcher. */
  public static final String DEFAULT_AGENT_COMMAND = "/opt/squall/bin/squall-agent";
  /** The agent's work directory on a node (its jobs' files, their srun and scontrol); the image recipe makes it. */
  public static final String WORK_DIR = "/var/lib/squall-agent";
  /** The port a cloud node's agent listens on, on every address: the controller reaches it from another machine. */
  public static final int AGENT_PORT = 6818;
  /** Where the script leaves the node's agent token for the agent's {@code --token-file} (mode 0600). */
  public static final String TOKEN_FILE = "/run/squall/agent-token";
  /**
   * Where the script leaves the CA the agent trusts for the controller, when one is configured:
   * readable by all, outside the token's directory, because jobs inherit it ({@code SQUALL_CA_FILE}).
   */
  public static final String CA_FILE = "/run/squall-controller-ca.pem";

  /** The cloud a script starts machines on: it decides whose metadata service the agent watches. */
  public enum Cloud {
    /** EC2: the agent watches IMDSv2 for Spot interruption notices and rebalance recommendations. */
    AWS("aws"),
    /** Compute Engine: the agent watches the metadata server for preemption and terminating maintenance. */
    GCP("gcp");

    private final String option;

    Cloud(String option) {
      this.option = option;
    }

    /** The agent's {@code --interruptions} value. */
    public String interruptionsOption() {
      return option;
    }
  }

  private AgentBootstrap() {}

  /**
   * @param identityCommand a shell command printing this machine's key (a metadata query)
   * @param keys one key per node, in the order of {@code nodes}
   * @param agent how the machine starts the agent, and where it fetches it from when the image lacks it
   * @param cloud where the machines run: passed on as the agent's {@code --interruptions}
   */
  public static String script(String identityCommand, List<String> keys, List<NodeLaunch> nodes, NodeAgent agent,
      Cloud cloud) {
    Objects.requireNonNull(cloud, "cloud");
    if (keys.size() != nodes.size()) {
      throw new IllegalArgumentException("one key per node: " + keys.size() + " keys, " + nodes.size() + " nodes");
    }
    StringBuilder s = new StringBuilder();
    s.append("#!/bin/bash\n")
        .append("# Squall node bootstrap: generated per launch; picks this machine's node and starts its agent.\n")
        .append("set -euo pipefail\n")
        .append("key=$(").append(identityCommand).append(")\n")
        // The token goes to a file only root can read, never into the agent's environment.
        .append("umask 077\n")
        .append("mkdir -p ").append(TOKEN_FILE.substring(0, TOKEN_FILE.lastIndexOf('/'))).append('\n');
    if (agent.controllerCa() != null) {
      // Once for the launch, not per node: a certificate is a kilobyte or two, user data 16 KB.
      s.append("printf '%s\\n' ").append(quote(agent.controllerCa().strip())).append(" > ").append(CA_FILE)
          .append(" && chmod 0644 ").append(CA_FILE).append('\n');
    }
    s.append("case \"$key\" in\n");
    for (int i = 0; i < nodes.size(); i++) {
      NodeLaunch launch = nodes.get(i);
      Node n = launch.node();
      s.append("  ").append(quote(keys.get(i))).append(")\n")
          .append("    printf '%s' ").append(quote(launch.agentToken())).append(" > ").append(TOKEN_FILE).append('\n')
          .append("    set -- --controller ").append(quote(launch.controllerUrl()))
          .append(" --token-file ").append(TOKEN_FILE)
          .append(" --name ").append(quote(n.name()))
          .append(" --gpus ").append(n.gpus())
          .append(" --gpu-type ").append(quote(n.gpuType()))
          .append(" --cpus ").append(n.cpus())
          .append(" --memory-mb ").append(n.memoryMb());
      if (!n.features().isEmpty()) {
        s.append(" --features ").append(quote(String.join(",", new TreeSet<>(n.features()))));
      }
      if (n.placementGroup() != null) {
        s.append(" --placement-group ").append(quote(n.placementGroup()));
      }
      s.append(" --interruptions ").append(cloud.interruptionsOption());
      s.append(" ;;\n");
    }
    s.append("  *) echo \"squall bootstrap: no node for key '$key'\" >&2; exit 1 ;;\n")
        .append("esac\n");
    if (agent.archiveUrl() != null) {
      fetchAgent(s, agent);
    }
    String command = agent.command() + " --work-dir " + WORK_DIR + " --bind 0.0.0.0 --port " + AGENT_PORT
        + (agent.controllerCa() == null ? "" : " --ca-file " + CA_FILE) + " \"$@\"";
    // Under systemd the agent runs as its unit would (agent/src/dist/systemd/squall-agent.service):
    // restarted when it fails, not when another agent took the node over (3), its jobs in its cgroup.
    s.append("if [ -d /run/systemd/system ] && command -v systemd-run >/dev/null; then\n")
        .append("  exec systemd-run --unit=squall-agent-boot --quiet --property=Restart=on-failure --property=RestartSec=5s")
        .append(" --property=RestartPreventExitStatus=3 --property=SuccessExitStatus=143 --property=KillMode=mixed")
        .append(" --property=TimeoutStopSec=90s --property=LimitNOFILE=65536 -- ").append(command).append('\n')
        .append("fi\n")
        .append("exec ").append(command).append('\n');
    return s.toString();
  }

  /**
   * A stock GPU image without the agent: fetch the agent archive and install it as the node image
   * recipe does (a Java runtime, /opt/squall, the work directory), once; a machine whose image has
   * it skips this. The machine's role or service account must be allowed to read the object.
   */
  private static void fetchAgent(StringBuilder s, NodeAgent agent) {
    String url = quote(agent.archiveUrl());
    s.append("if [ ! -x ").append(agent.command()).append(" ]; then\n")
        .append("  work=$(mktemp -d)\n")
        .append("  case ").append(url).append(" in\n")
        .append("    s3://*) aws s3 cp --only-show-errors ").append(url).append(" \"$work/agent.tar.gz\" ;;\n")
        .append("    gs://*) gcloud storage cp ").append(url).append(" \"$work/agent.tar.gz\" ;;\n")
        // https only, redirects included: a redirect to http would let the network swap what root installs.
        .append("    *) curl -fsSL --proto =https --proto-redir =https --retry 5 -o \"$work/agent.tar.gz\" ").append(url)
        .append(" ;;\n")
        .append("  esac\n")
        // awk reads the whole listing: head would close the pipe early, and tar's SIGPIPE fail the script.
        .append("  dist=$(tar -tzf \"$work/agent.tar.gz\" | awk -F/ 'NR == 1 { print $1 }')\n")
        .append("  tar -xzf \"$work/agent.tar.gz\" -C /opt\n")
        .append("  \"/opt/$dist/image/build-node-image.sh\"\n")
        .append("  rm -rf \"$work\"\n")
        .append("fi\n");
  }

  /** Single-quoted for the shell, whatever the value holds (the agent's tool scripts use it too). */
  public static String quote(String value) {
    return "'" + value.replace("'", "'\\''") + "'";
  }
}
