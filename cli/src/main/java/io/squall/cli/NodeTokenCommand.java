package io.squall.cli;

import io.squall.agent.NodeTokens;
import java.util.List;

/**
 * {@code squall node-token NODE < AGENT_SECRET}: prints the agent token of one node, as the
 * controller gives the nodes it launches ({@code squall-node:NODE:MAC}), for a node started by
 * hand or by a user-data script of one's own. That node can then speak to the controller only as
 * itself, and the cluster's secret stays off the machine (user data is readable by every process
 * on it through the metadata service).
 */
final class NodeTokenCommand {
  static final String USAGE = """
      Usage: node-token NODE < AGENT_SECRET
        Reads the cluster's agent secret (squall.agent-token) on standard input and prints NODE's
        own agent token, squall-node:NODE:MAC, for that node's agent (--token-file).""";
  private final Invocation io;

  NodeTokenCommand(Invocation io) {
    this.io = io;
  }

  int run(List<String> args) {
    if (args.size() == 1 && (args.get(0).equals("--help") || args.get(0).equals("-h"))) {
      io.out().println(USAGE);
      return 0;
    }
    if (args.size() != 1 || args.get(0).isBlank() || args.get(0).startsWith("-")
        || args.get(0).chars().anyMatch(c -> c <= ' ' || c == ':')) {
      io.err().println("node-token: give one node name (no spaces or colons); the secret is read on standard input\n"
          + USAGE);
      return 2;
    }
    String secret = SecretInput.read(io, "node-token", "squall node-token gpu-1 < agent-token-file");
    if (secret == null) {
      return 2;
    }
    io.out().println(new NodeTokens(secret).issue(args.get(0)));
    return 0;
  }
}
