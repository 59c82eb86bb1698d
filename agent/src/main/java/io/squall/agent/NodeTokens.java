package io.squall.agent;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Per-node agent tokens: {@code squall-node:NAME:MAC}, where MAC is HMAC-SHA256 of the node's
 * name under the cluster's agent secret. A launched node gets only its own token (in its user
 * data or startup script, which anyone on the machine can read), so a node can speak to the
 * controller only as itself, and the cluster secret never leaves the controller. The controller
 * needs no table of tokens: it recomputes the MAC.
 *
 * <p>Thread-safe.
 */
public final class NodeTokens {
  public static final String PREFIX = "squall-node:";
  private static final String ALGORITHM = "HmacSHA256";
  private final SecretKeySpec key;

  /** @param clusterSecret the cluster's agent secret ({@code squall.agent-token}) */
  public NodeTokens(String clusterSecret) {
    if (clusterSecret == null || clusterSecret.isEmpty()) {
      throw new IllegalArgumentException("the agent secret must not be empty");
    }
    key = new SecretKeySpec(clusterSecret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
  }

  /** The token of node {@code node}. */
  public String issue(String node) {
    return PREFIX + node + ":" + mac(node);
  }

  /** The node a token was issued to, when it is a genuine per-node token; empty for anything else. */
  public Optional<String> nodeOf(String token) {
    if (token == null || !token.startsWith(PREFIX)) {
      return Optional.empty();
    }
    int colon = token.lastIndexOf(':');
    if (colon <= PREFIX.length()) {
      return Optional.empty(); // no name, or no MAC
    }
    String node = token.substring(PREFIX.length(), colon);
    byte[] expected = mac(node).getBytes(StandardCharsets.US_ASCII);
    byte[] given = token.substring(colon + 1).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, given) ? Optional.of(node) : Optional.empty();
  }

  private String mac(String node) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(node.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}
