package io.squall.providers.local;

import io.squall.agent.AgentMain;
import io.squall.agent.JavaCommand;
import io.squall.core.model.Node;
import io.squall.core.provider.NodeLaunch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The command line of one node's agent: this JVM's java and class path, so the agent runs
 * exactly the code of the controller that starts it. The agent token is not on it: the agent
 * reads it from a 0600 file in its directory, so it is neither in the process list nor in the
 * agent's environment.
 */
final class AgentCommand {
  /** The token file's name in the node's directory. */
  static final String TOKEN_FILE = "agent-token";

  private AgentCommand() {}

  static List<String> forNode(NodeLaunch launch, Path workDir, Path tokenFile, List<String> jvmArgs) {
    Node node = launch.node();
    List<String> command = new ArrayList<>();
    command.add(JavaCommand.executable());
    command.addAll(jvmArgs);
    command.add("-cp");
    command.add(JavaCommand.classPath());
    command.add(AgentMain.class.getName());
    add(command, "--controller", launch.controllerUrl());
    add(command, "--token-file", tokenFile.toString());
    add(command, "--name", node.name());
    add(command, "--gpus", Integer.toString(node.gpus()));
    add(command, "--gpu-type", node.gpuType());
    add(command, "--cpus", Integer.toString(node.cpus()));
    add(command, "--memory-mb", Long.toString(node.memoryMb()));
    if (!node.features().isEmpty()) {
      add(command, "--features", String.join(",", new TreeSet<>(node.features())));
    }
    add(command, "--placement-group", node.placementGroup());
    add(command, "--work-dir", workDir.toString());
    add(command, "--bind", "127.0.0.1");
    add(command, "--port", "0");
    return command;
  }

  /** Options without a value are left out: the agent's defaults (or the controller's configuration) decide. */
  private static void add(List<String> command, String option, String value) {
    if (value != null && !value.isBlank()) {
      command.add(option);
      command.add(value);
    }
  }
}
