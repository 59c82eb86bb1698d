package io.squall.api.auth;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.exceptions.ConfigurationException;
import io.squall.api.config.SquallConfig;
import io.squall.api.config.UserConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Squall ships with secrets anyone can read in its README ({@code application.yml}'s agent token
 * and the example users' tokens), so that it runs on a laptop with no set-up. With them, anyone
 * who reaches the port can end any job (a forged exit) or take a node down (a forged
 * interruption). So the controller refuses to start on an address other hosts can reach while
 * any of them is still in force, and names the keys to set; on loopback it starts and warns. It
 * also warns about a configuration file (which holds tokens) that other users may read, and refuses
 * an agent token given as a hash: the controller needs that secret itself.
 */
@Context
public final class DefaultSecrets {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultSecrets.class);
  private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.OTHERS_READ);
  /** The secrets application.yml ships, by the key that holds them. */
  static final Map<String, String> BUILT_IN = Map.of(
      "squall.agent-token", "change-me-agent-token",
      "squall.users.alice.token", "alice-token",
      "squall.users.bob.token", "bob-token",
      "squall.users.admin.token", "admin-token");

  public DefaultSecrets(SquallConfig config, List<UserConfig> users, @Value("${micronaut.server.host:}") String host) {
    for (Path open : openToOthers(System.getProperty("micronaut.config.files", ""))) {
      LOG.warn("{} may be read by other users, and configuration holds tokens: chmod 600 it", open);
    }
    if (config.getAgentToken() != null && UserTokens.looksHashed(config.getAgentToken())) {
      // Unlike a user's token, the controller does not only check the agent token: it signs each
      // launched node's token with it and presents it to hand-started agents.
      throw new ConfigurationException("squall.agent-token: a hash cannot stand in for the agent token, which the"
          + " controller signs node tokens with and presents to agents; give the secret itself, and keep it out of"
          + " configuration files with the environment variable SQUALL_AGENT_TOKEN");
    }
    List<String> keys = inForce(config.getAgentToken(), users);
    if (keys.isEmpty()) {
      return;
    }
    if (!isLoopback(host)) {
      throw new ConfigurationException("refusing to listen on " + (host.isBlank() ? "every address" : host)
          + " while these secrets still have the values Squall ships with, which anyone can read: "
          + String.join(", ", keys) + ". Set each to a secret of your own (e.g. SQUALL_AGENT_TOKEN=$(openssl rand"
          + " -hex 32)), or give users token-hash (made with 'squall hash-token') instead of token.");
    }
    LOG.warn("{} still have the values Squall ships with: fine on this machine's loopback address ({}),"
        + " but set them before listening on any other", String.join(", ", keys), host);
  }

  /** The keys whose value is one Squall ships with (any of them: a user given the agent's counts too). */
  static List<String> inForce(String agentToken, List<UserConfig> users) {
    List<String> keys = new ArrayList<>();
    if (agentToken != null && BUILT_IN.containsValue(agentToken)) {
      keys.add("squall.agent-token");
    }
    for (UserConfig u : users.stream().sorted(Comparator.comparing(UserConfig::getName)).toList()) {
      String token = tokenInForce(u);
      if (token != null && BUILT_IN.containsValue(token)) {
        keys.add("squall.users." + u.getName() + ".token");
      }
    }
    return keys;
  }

  /**
   * The user's token, or null when it has none or a {@code token-hash} replaces it. A hash
   * replaces a token only when the token is one Squall ships: the built-in users' tokens come from
   * application.yml, under any file an operator writes, so that file could not otherwise give
   * them a hash. Any other token beside a hash is a mistake the caller refuses.
   */
  static String tokenInForce(UserConfig u) {
    boolean replaced = u.getTokenHash() != null && u.getToken() != null && BUILT_IN.containsValue(u.getToken());
    return replaced ? null : u.getToken();
  }

  /** The configuration files ({@code micronaut.config.files}, comma-separated) that others may read. */
  static List<Path> openToOthers(String files) {
    List<Path> open = new ArrayList<>();
    for (String f : files.split(",")) {
      Path p = Path.of(f.strip());
      try {
        if (!f.isBlank() && Files.getPosixFilePermissions(p).stream().anyMatch(OTHERS::contains)) {
          open.add(p);
        }
      } catch (IOException | UnsupportedOperationException unreadable) {
        // Micronaut itself says what is wrong with a file it cannot read.
      }
    }
    return open;
  }

  /** Whether the server's address is a loopback one; blank (every interface) is not. */
  public static boolean isLoopback(String host) {
    if (host == null || host.isBlank()) {
      return false;
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
