package io.squall.cli.service;

import java.util.List;

/**
 * {@code GET /v1/shares}'s answer.
 *
 * @param algorithm {@code fair-tree} or {@code classic}: which columns sshare prints by default
 */
public record Shares(String algorithm, List<ShareInfo> shares) {
  public Shares {
    shares = shares == null ? List.of() : List.copyOf(shares);
  }

  public boolean fairTree() {
    return "fair-tree".equals(algorithm);
  }
}
