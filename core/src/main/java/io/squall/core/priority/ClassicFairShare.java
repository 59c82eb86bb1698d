package io.squall.core.priority;

/**
 * Slurm's classic fair-share (classic_fair_share.html, {@code PriorityFlags=NO_FAIR_TREE}):
 * normalized shares multiply down the tree; effective usage is
 * {@code UE = U + (UE_parent - U) * S_raw / S_raw(siblings)} with U the usage over the whole
 * cluster's; a user's factor is {@code 2^(-UE/S)}, and so is an account's, which sshare shows.
 */
final class ClassicFairShare {
  private ClassicFairShare() {}

  static void apply(ShareNode root) {
    root.normShares = 1.0;
    root.effectiveUsage = 1.0; // as slurmctld sets root's
    walk(root, root.rawUsage, 0.0);
  }

  private static void walk(ShareNode parent, double total, double parentEffective) {
    int siblingShares = ShareNode.levelShares(parent);
    for (ShareNode m : parent.children) {
      double fraction = siblingShares == 0 ? 0 : m.rawShares / (double) siblingShares;
      m.normShares = parent.normShares * fraction;
      double normUsage = total == 0 ? 0 : m.rawUsage / total;
      m.effectiveUsage = normUsage + (parentEffective - normUsage) * fraction;
      m.factor = m.normShares == 0 ? 0 : Math.pow(2, -m.effectiveUsage / m.normShares);
      if (!m.isUser()) {
        walk(m, total, m.effectiveUsage);
      }
    }
  }
}
