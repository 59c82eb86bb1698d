package io.squall.core.priority;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Slurm's Fair Tree (fair_tree.html): each association's Level Fairshare is {@code LF = S / U}
 * with S its shares over its and its siblings' shares and U its usage over its parent's (no
 * usage: infinity; no shares: 0). Siblings are sorted by LF, highest first, and the tree is
 * walked depth first; each user found gets {@code rank / number of users}, the first one the
 * highest rank. So every user of an account with a higher LF than a sibling account ranks above
 * every user of that sibling. Ties, as documented: sibling users with the same LF share a rank;
 * sibling accounts with the same LF have their children merged before they are sorted; a user
 * with the same LF as a sibling account shares its rank with that account's highest user (users
 * sort before accounts of the same LF). A shared rank skips the ranks after it (4, 4, 2).
 *
 * <p>Tied accounts are merged as the page documents. slurmctld's own {@code _count_tied_accounts}
 * (fair_tree.c) stops at the first following sibling that is an account, so there it never merges
 * any; here the documented behaviour is followed.
 */
final class FairTree {
  /** Higher LF first, users before accounts of the same LF; the sort is stable (tree order last). */
  private static final Comparator<ShareNode> BY_LEVEL_FS = Comparator
      .comparingDouble((ShareNode n) -> n.levelFs).reversed()
      .thenComparing(n -> !n.isUser());

  private final int users;
  /** The rank the next user gets unless tied ({@code rnt} in fair_tree.c), and the last one given. */
  private int untied;
  private int rank;

  private FairTree(int users) {
    this.users = users;
    this.untied = users;
    this.rank = users;
  }

  static void apply(ShareNode root) {
    // As slurmctld shows root: no siblings' shares to be a share of, all of the usage.
    root.normShares = 0;
    root.effectiveUsage = 1.0;
    levelFs(root);
    new FairTree(countUsers(root)).rank(root.children, false);
  }

  private static void levelFs(ShareNode parent) {
    int levelShares = ShareNode.levelShares(parent);
    for (ShareNode m : parent.children) {
      m.normShares = levelShares == 0 ? 0 : m.rawShares / (double) levelShares;
      m.effectiveUsage = parent.rawUsage == 0 ? 0 : m.rawUsage / parent.rawUsage;
      // S / 0 is infinity: an association with shares and no usage comes first.
      m.levelFs = m.normShares == 0 ? 0 : m.normShares / m.effectiveUsage;
      levelFs(m);
    }
  }

  private static int countUsers(ShareNode node) {
    int n = node.isUser() ? 1 : 0;
    for (ShareNode c : node.children) {
      n += countUsers(c);
    }
    return n;
  }

  /** @param accountTied whether the account these are the children of tied with the sibling before it */
  private void rank(List<ShareNode> siblings, boolean accountTied) {
    List<ShareNode> sorted = new ArrayList<>(siblings);
    sorted.sort(BY_LEVEL_FS);
    for (int i = 0; i < sorted.size(); i++) {
      ShareNode m = sorted.get(i);
      boolean tied = i == 0 ? accountTied : sorted.get(i - 1).levelFs == m.levelFs;
      if (m.isUser()) {
        if (!tied) {
          rank = untied;
        }
        m.factor = rank / (double) users;
        untied--;
      } else {
        List<ShareNode> merged = new ArrayList<>(m.children);
        while (i + 1 < sorted.size() && !sorted.get(i + 1).isUser() && sorted.get(i + 1).levelFs == m.levelFs) {
          merged.addAll(sorted.get(++i).children);
        }
        rank(merged, tied);
      }
    }
  }
}
