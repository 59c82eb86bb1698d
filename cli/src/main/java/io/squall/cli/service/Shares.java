package io.squall.cli.service;

import java.util.List;

/**
 * {@code GET /v1/shares}'s answer.
 *
 * @param algorithm {@code fair-tree} or {@code classic}: which columns sshare prints by default
 */
public record Shares(String algorithm, List<ShareInfo> shares) {
  /** Reads one from the service's JSON. */
  static Shares from(JsonAnswer a) {
    return new Shares(
        a.string("algorithm"),
        a.objects("shares", ShareInfo::from));
  }

  public Shares {
    shares = shares == null ? List.of() : List.copyOf(shares);
  }

  public boolean fairTree() {
    return "fair-tree".equals(algorithm);
  }
}
