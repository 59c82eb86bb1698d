package io.squall.api.agents;

import io.squall.api.config.SquallConfig;
import io.squall.api.fleet.Providers;
import io.squall.agent.NodeTokens;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * Which token a node's agent holds, and so which one the controller takes from it and shows it.
 *
 * <p>Agents this controller launches (any provider but {@code none}) get their own
 * {@link NodeTokens per-node token}: it lets them speak for their node only. Agents started by
 * hand (provider {@code none}) hold the cluster's agent token ({@code squall.agent-token}), which
 * the controller still takes for any node.
 */
@Singleton
public final class AgentCredentials {
  private final byte[] clusterToken;
  private final NodeTokens nodeTokens;
  private final boolean launchesAgents;

  public AgentCredentials(SquallConfig config, Providers providers) {
    this.clusterToken = config.getAgentToken().getBytes(StandardCharsets.UTF_8);
    this.nodeTokens = new NodeTokens(config.getAgentToken());
    this.launchesAgents = providers.provider() != null;
  }

  /** The token a launched node's agent is given. */
  public String forLaunch(String node) {
    return nodeTokens.issue(node);
  }

  /** The token the controller shows a node's agent: the one the agent was started with. */
  public String forCalls(String node) {
    return launchesAgents ? nodeTokens.issue(node) : new String(clusterToken, StandardCharsets.UTF_8);
  }

  /** Whether this is the cluster's agent token (good for any node). */
  public boolean isClusterToken(String token) {
    return MessageDigest.isEqual(clusterToken, token.getBytes(StandardCharsets.UTF_8));
  }

  /** The node a per-node token speaks for; empty when it is not a genuine one. */
  public Optional<String> nodeOf(String token) {
    return nodeTokens.nodeOf(token);
  }
}
