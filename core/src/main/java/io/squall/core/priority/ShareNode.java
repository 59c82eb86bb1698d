package io.squall.core.priority;

import io.squall.core.model.Account;
import io.squall.core.model.UsageLedger;
import io.squall.core.model.UserAssociation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One association of the fair-share tree: root, an account, or a user in an account (a leaf),
 * with its raw shares and raw usage (an account's is the sum of its children's, as Slurm adds a
 * job's usage to every association up to root). The algorithms fill in the rest.
 */
final class ShareNode {
  final String account;
  /** Null for root and accounts. */
  final String user;
  final int rawShares;
  final int depth;
  final List<ShareNode> children = new ArrayList<>();
  double rawUsage;
  double normShares;
  double effectiveUsage;
  double levelFs = Double.NaN;
  double factor = Double.NaN;

  private ShareNode(String account, String user, int rawShares, int depth) {
    this.account = account;
    this.user = user;
    this.rawShares = rawShares;
    this.depth = depth;
  }

  boolean isUser() {
    return user != null;
  }

  /** Sibling order, as sshare lists them: users before sub-accounts, each by name. */
  static final Comparator<ShareNode> LISTING = Comparator.comparing((ShareNode n) -> !n.isUser())
      .thenComparing(n -> n.isUser() ? n.user : n.account);

  /**
   * The tree under root: accounts without a parent are root's children. Accounts and users that
   * hang from no account of the tree are left out (they get no factor).
   */
  static ShareNode root(List<Account> accounts, List<UserAssociation> users, UsageLedger usage) {
    Map<String, List<Account>> subAccounts = new HashMap<>();
    accounts.forEach(a -> subAccounts.computeIfAbsent(a.parent() == null ? "" : a.parent(), k -> new ArrayList<>())
        .add(a));
    Map<String, List<UserAssociation>> members = new HashMap<>();
    users.forEach(u -> members.computeIfAbsent(u.account(), k -> new ArrayList<>()).add(u));
    ShareNode root = new ShareNode("root", null, 1, 0);
    grow(root, "", subAccounts, members, usage);
    return root;
  }

  private static void grow(ShareNode node, String key, Map<String, List<Account>> subAccounts,
      Map<String, List<UserAssociation>> members, UsageLedger usage) {
    for (UserAssociation u : members.getOrDefault(key, List.of())) {
      ShareNode leaf = new ShareNode(u.account(), u.user(), u.shares(), node.depth + 1);
      leaf.rawUsage = usage.of(u.account(), u.user());
      node.children.add(leaf);
    }
    for (Account a : subAccounts.getOrDefault(key, List.of())) {
      ShareNode child = new ShareNode(a.name(), null, a.shares(), node.depth + 1);
      grow(child, a.name(), subAccounts, members, usage);
      node.children.add(child);
    }
    node.children.sort(LISTING);
    for (ShareNode c : node.children) {
      node.rawUsage += c.rawUsage;
    }
  }

  /** The shares of this node and its siblings, from their parent. */
  static int levelShares(ShareNode parent) {
    int sum = 0;
    for (ShareNode c : parent.children) {
      sum += c.rawShares;
    }
    return sum;
  }
}
