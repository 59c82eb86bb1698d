package io.squall.core.priority;

import io.squall.core.model.Account;
import io.squall.core.model.UsageLedger;
import io.squall.core.model.UserAssociation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fair-share factors of every user association, from the account tree, shares and decayed usage
 * (Slurm's classic algorithm): normalized shares multiply down the tree; effective usage is
 * {@code U + (UE_parent - U) * shares / sibling shares}; the factor is {@code 2^(-UE/S)}.
 */
public final class FairShare {
  private final Map<String, Double> factors;

  private FairShare(Map<String, Double> factors) {
    this.factors = factors;
  }

  /** The factor in [0, 1] of {@code user} in {@code account}; 0 for an unknown association. */
  public double factor(String account, String user) {
    return factors.getOrDefault(UsageLedger.association(account, user), 0.0);
  }

  public static FairShare compute(List<Account> accounts, List<UserAssociation> users, UsageLedger usage) {
    // The tree: children of each account ("" is root), in the snapshot's order.
    Map<String, List<Member>> children = new HashMap<>();
    for (Account a : accounts) {
      children.computeIfAbsent(a.parent() == null ? "" : a.parent(), k -> new ArrayList<>())
          .add(new Member(a.name(), null, a.shares()));
    }
    for (UserAssociation u : users) {
      children.computeIfAbsent(u.account(), k -> new ArrayList<>()).add(new Member(u.account(), u.user(), u.shares()));
    }
    Map<String, Double> subtreeUsage = new HashMap<>();
    double total = usageOf("", children, usage, subtreeUsage);
    Map<String, Double> factors = new TreeMap<>();
    walk("", 1.0, 0.0, total, children, subtreeUsage, factors);
    return new FairShare(factors);
  }

  /** An account (user null) or a user association within {@code account}. */
  private record Member(String account, String user, int shares) {
    String key() {
      return user == null ? account : UsageLedger.association(account, user);
    }
  }

  private static double usageOf(String account, Map<String, List<Member>> children, UsageLedger usage,
      Map<String, Double> out) {
    double sum = 0;
    for (Member m : children.getOrDefault(account, List.of())) {
      double u = m.user() != null ? usage.of(m.account(), m.user()) : usageOf(m.account(), children, usage, out);
      out.put(m.key(), u);
      sum += u;
    }
    return sum;
  }

  private static void walk(String account, double parentShares, double parentEffective, double total,
      Map<String, List<Member>> children, Map<String, Double> usage, Map<String, Double> factors) {
    List<Member> members = children.getOrDefault(account, List.of());
    double siblingShares = 0;
    for (Member m : members) {
      siblingShares += m.shares();
    }
    for (Member m : members) {
      double fraction = siblingShares == 0 ? 0 : m.shares() / siblingShares;
      double normShares = parentShares * fraction;
      double normUsage = total == 0 ? 0 : usage.get(m.key()) / total;
      double effective = normUsage + (parentEffective - normUsage) * fraction;
      if (m.user() != null) {
        factors.put(m.key(), normShares == 0 ? 0 : Math.pow(2, -effective / normShares));
      } else {
        walk(m.account(), normShares, effective, total, children, usage, factors);
      }
    }
  }
}
