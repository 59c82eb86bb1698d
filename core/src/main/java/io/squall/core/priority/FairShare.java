package io.squall.core.priority;

import io.squall.core.model.Account;
import io.squall.core.model.UsageLedger;
import io.squall.core.model.UserAssociation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fair-share factors of every user association, from the account tree, shares and decayed usage,
 * by Fair Tree or the classic algorithm, and each association's standing as sshare shows it.
 */
public final class FairShare {
  /**
   * One association as {@code sshare -l} lists it.
   *
   * @param user null for root and accounts
   * @param depth 0 for root, 1 for its children, ...
   * @param normShares Fair Tree: the shares over its siblings' ({@code S}), 0 for root; classic:
   *     multiplied down the tree, 1 for root
   * @param rawUsage decayed billed TRES-seconds, its subtree's for an account
   * @param normUsage its usage over the whole cluster's
   * @param effectiveUsage Fair Tree: its usage over its parent's ({@code U}); classic: {@code UE};
   *     1 for root
   * @param levelFs Fair Tree's {@code S / U} (infinite without usage); NaN under classic and for root
   * @param factor a user's fair-share factor in [0, 1]; classic also gives accounts theirs; NaN
   *     for root and, under Fair Tree, for accounts
   */
  public record Standing(String account, String user, int depth, int rawShares, double normShares,
      double rawUsage, double normUsage, double effectiveUsage, double levelFs, double factor) {}

  private final List<Standing> standings;
  private final Map<String, Double> factors;

  private FairShare(List<Standing> standings, Map<String, Double> factors) {
    this.standings = standings;
    this.factors = factors;
  }

  /** The factor in [0, 1] of {@code user} in {@code account}; 0 for an unknown association. */
  public double factor(String account, String user) {
    return factors.getOrDefault(UsageLedger.association(account, user), 0.0);
  }

  /** Root, then each account followed by its users and sub-accounts, depth first. */
  public List<Standing> standings() {
    return standings;
  }

  public static FairShare compute(FairShareAlgorithm algorithm, List<Account> accounts, List<UserAssociation> users,
      UsageLedger usage) {
    ShareNode root = ShareNode.root(accounts, users, usage);
    switch (algorithm) {
      case FAIR_TREE -> FairTree.apply(root);
      case CLASSIC -> ClassicFairShare.apply(root);
    }
    List<Standing> standings = new ArrayList<>();
    Map<String, Double> factors = new TreeMap<>();
    list(root, root.rawUsage, standings, factors);
    return new FairShare(List.copyOf(standings), factors);
  }

  private static void list(ShareNode n, double total, List<Standing> out, Map<String, Double> factors) {
    out.add(new Standing(n.account, n.user, n.depth, n.rawShares, n.normShares, n.rawUsage,
        total == 0 ? 0 : n.rawUsage / total, n.effectiveUsage, n.levelFs, n.factor));
    if (n.isUser()) {
      factors.put(UsageLedger.association(n.account, n.user), n.factor);
    }
    for (ShareNode c : n.children) {
      list(c, total, out, factors);
    }
  }
}
