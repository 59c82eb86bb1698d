package io.squall.providers.aws;

import io.squall.core.provider.AgentBootstrap;
import io.squall.core.provider.NodeAgent;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.ProviderException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The EC2 user data of a launch: the {@link AgentBootstrap} script with every node of the launch,
 * each keyed by its launch index ({@code 0}, {@code 1}, ...), which each machine reads from the
 * instance metadata service (IMDSv2: a session token first, then the index).
 */
final class UserData {
  private UserData() {}

  /** EC2 refuses user data over 16 KB (before base64). */
  static final int MAX_BYTES = 16 * 1024;

  /** Prints this machine's {@code ami-launch-index} through IMDSv2. */
  static final String IDENTITY_COMMAND = "t=$(curl -fsS --retry 10 --retry-connrefused -X PUT"
      + " -H 'X-aws-ec2-metadata-token-ttl-seconds: 300' http://169.254.169.254/latest/api/token)"
      + " && curl -fsS --retry 10 --retry-connrefused -H \"X-aws-ec2-metadata-token: $t\""
      + " http://169.254.169.254/latest/meta-data/ami-launch-index";

  /** The bootstrap script for {@code nodes}, node {@code i} started by the instance of launch index {@code i}. */
  static String script(List<NodeLaunch> nodes, NodeAgent agent) {
    List<String> keys = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      keys.add(Integer.toString(i));
    }
    return AgentBootstrap.script(IDENTITY_COMMAND, keys, nodes, agent, AgentBootstrap.Cloud.AWS);
  }

  /**
   * The script, base64-encoded as RunInstances takes it.
   *
   * @throws ProviderException {@code INVALID} when the script is over EC2's 16 KB limit (too many
   *     nodes in one launch)
   */
  static String encoded(List<NodeLaunch> nodes, NodeAgent agent) {
    byte[] bytes = script(nodes, agent).getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES) {
      throw new ProviderException(ProviderException.Kind.INVALID, "RunInstances: user data for " + nodes.size()
          + " nodes is " + bytes.length + " bytes, over EC2's limit of " + MAX_BYTES + "; launch fewer nodes at once");
    }
    return Base64.getEncoder().encodeToString(bytes);
  }
}
