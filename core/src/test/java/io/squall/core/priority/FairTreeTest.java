package io.squall.core.priority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.squall.core.model.Account;
import io.squall.core.model.UsageLedger;
import io.squall.core.model.UserAssociation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fair Tree as fair_tree.html describes it: Level Fairshare {@code LF = S / U} per level, users
 * ranked depth first with the highest LF first, the factor {@code rank / users}, and its three tie
 * rules. The trees are small enough to work out by hand; each test says how.
 */
class FairTreeTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

  /**
   * The documentation's example: root => Acct1 => Acct12 => UserA and root => Acct1 => Acct16 =>
   * UserB. "If UserB has a higher FairShare value than UserA, Acct16 has a higher Level FS value
   * than Acct12": Acct12 used 30 of Acct1's 40, Acct16 10, on equal shares, so Acct16's LF is
   * 0.5 / 0.25 = 2 and Acct12's 0.5 / 0.75 = 0.667. UserB ranks 2 of 2 (1.0), UserA 1 (0.5);
   * both are alone in their account, so their own LF is 1 / 1 = 1.
   */
  @Test
  void theDocumentedExampleRanksTheUserOfTheLessUsedAccountFirst() {
    FairShare fs = fairTree(
        List.of(new Account("Acct1", null, 1), new Account("Acct12", "Acct1", 1), new Account("Acct16", "Acct1", 1)),
        List.of(new UserAssociation("UserA", "Acct12", 1), new UserAssociation("UserB", "Acct16", 1)),
        Map.of("Acct12/UserA", 30.0, "Acct16/UserB", 10.0));
    assertThat(fs.factor("Acct16", "UserB")).isEqualTo(1.0);
    assertThat(fs.factor("Acct12", "UserA")).isEqualTo(0.5);
    Map<String, FairShare.Standing> s = byName(fs);
    assertThat(s.get("Acct16").levelFs()).isCloseTo(2.0, within(1e-12));
    assertThat(s.get("Acct12").levelFs()).isCloseTo(0.5 / 0.75, within(1e-12));
    assertThat(s.get("Acct12").effectiveUsage()).isCloseTo(0.75, within(1e-12));
    assertThat(s.get("Acct12").normShares()).isEqualTo(0.5);
    assertThat(s.get("Acct12/UserA").levelFs()).isEqualTo(1.0);
    assertThat(s.get("Acct1").rawUsage()).isEqualTo(40.0);
  }

  /**
   * Every user of the account with the higher LF ranks above every user of its sibling, even one
   * who used nothing. A (a1 used 55, a2 nothing) and B (b1 used 45, b2 nothing), equal shares: B's
   * LF 0.5 / 0.45 beats A's 0.5 / 0.55, so b2 (LF infinite) 4/4, b1 3/4, a2 2/4, a1 1/4. The classic
   * formula puts a2 (0.683) above b1 (0.392): what Fair Tree was made to prevent.
   */
  @Test
  void allUsersOfTheUnderServedAccountRankAboveTheOthers() {
    List<Account> accounts = List.of(new Account("A", null, 1), new Account("B", null, 1));
    List<UserAssociation> users = List.of(new UserAssociation("a1", "A", 1), new UserAssociation("a2", "A", 1),
        new UserAssociation("b1", "B", 1), new UserAssociation("b2", "B", 1));
    Map<String, Double> used = Map.of("A/a1", 55.0, "B/b1", 45.0);
    FairShare fs = fairTree(accounts, users, used);
    assertThat(List.of(fs.factor("B", "b2"), fs.factor("B", "b1"), fs.factor("A", "a2"), fs.factor("A", "a1")))
        .containsExactly(1.0, 0.75, 0.5, 0.25);
    FairShare classic = FairShare.compute(FairShareAlgorithm.CLASSIC, accounts, users, ledger(used));
    assertThat(classic.factor("A", "a2")).isCloseTo(Math.pow(2, -0.55), within(1e-9));
    assertThat(classic.factor("B", "b1")).isCloseTo(Math.pow(2, -1.35), within(1e-9));
    // sshare shows classic's factor for accounts too: A's effective usage 0.55 / 2 on half the shares.
    assertThat(byName(classic).get("A").factor()).isCloseTo(Math.pow(2, -0.55), within(1e-9));
    assertThat(byName(fs).get("A").factor()).isNaN();
  }

  /**
   * "Sibling accounts with the same Level Fairshare have their children lists merged before
   * descending". P holds user u (no usage: LF infinite) and accounts X and Y, each 10 of P's 20 on
   * a third of the shares (LF 2/3 both). u ranks 5/5. X and Y tie, so x1 (used all of X: LF 0.5),
   * x2 (nothing: infinite) and y1 (all of Y, alone: LF 1) are sorted together: x2 4/5, y1 3/5, x1
   * 2/5. Walked apart, y1 would come after both of X's users (2/5). Q (LF 0.5 / (100/120)) after
   * P (0.5 / (20/120)): q1 1/5.
   */
  @Test
  void tiedSiblingAccountsHaveTheirChildrenMerged() {
    FairShare fs = fairTree(
        List.of(new Account("P", null, 1), new Account("X", "P", 1), new Account("Y", "P", 1),
            new Account("Q", null, 1)),
        List.of(new UserAssociation("u", "P", 1), new UserAssociation("x1", "X", 1), new UserAssociation("x2", "X", 1),
            new UserAssociation("y1", "Y", 1), new UserAssociation("q1", "Q", 1)),
        Map.of("X/x1", 10.0, "Y/y1", 10.0, "Q/q1", 100.0));
    assertThat(List.of(fs.factor("P", "u"), fs.factor("X", "x2"), fs.factor("Y", "y1"), fs.factor("X", "x1"),
        fs.factor("Q", "q1"))).containsExactly(1.0, 0.8, 0.6, 0.4, 0.2);
  }

  /**
   * "A user with the same Level Fairshare as a sibling account will receive the same rank as its
   * highest ranked user", and "sibling users with the same Level Fairshare receive the same rank";
   * a shared rank skips the next. In P, u and account Z used 10 each on equal shares (LF 1 both):
   * u ranks 5, and so does z2 (nothing used, Z's first); z1 (LF 0.5) gets 3, the rank after the
   * two. In R, r1 and r2 used the same (LF 1 both): both 2/5.
   */
  @Test
  void aUserTiedWithASiblingAccountSharesItsRankWithThatAccountsFirstUser() {
    FairShare fs = fairTree(
        List.of(new Account("P", null, 1), new Account("Z", "P", 1), new Account("R", null, 1)),
        List.of(new UserAssociation("u", "P", 1), new UserAssociation("z1", "Z", 1), new UserAssociation("z2", "Z", 1),
            new UserAssociation("r1", "R", 1), new UserAssociation("r2", "R", 1)),
        Map.of("P/u", 10.0, "Z/z1", 10.0, "R/r1", 50.0, "R/r2", 50.0));
    assertThat(List.of(fs.factor("P", "u"), fs.factor("Z", "z2"), fs.factor("Z", "z1"), fs.factor("R", "r1"),
        fs.factor("R", "r2"))).containsExactly(1.0, 1.0, 0.6, 0.4, 0.4);
  }

  /** No usage anywhere: every LF is infinite, every user ties, every factor is 1. No shares: LF 0, last. */
  @Test
  void withoutUsageEveryoneTiesAndWithoutSharesLast() {
    FairShare fs = fairTree(List.of(new Account("A", null, 1), new Account("B", null, 0)),
        List.of(new UserAssociation("a1", "A", 1), new UserAssociation("a2", "A", 1),
            new UserAssociation("b1", "B", 1)), Map.of());
    assertThat(List.of(fs.factor("A", "a1"), fs.factor("A", "a2"), fs.factor("B", "b1")))
        .containsExactly(1.0, 1.0, 1.0 / 3);
    assertThat(byName(fs).get("A/a1").levelFs()).isInfinite();
    assertThat(fs.factor("A", "nobody")).isZero();
  }

  /** sshare's order: root, then each account with its users first and sub-accounts after, by name. */
  @Test
  void standingsAreListedAsATree() {
    FairShare fs = fairTree(List.of(new Account("b", null, 1), new Account("a", null, 1), new Account("a2", "a", 1)),
        List.of(new UserAssociation("zed", "a", 1), new UserAssociation("amy", "a", 1),
            new UserAssociation("bo", "b", 1)), Map.of("a/amy", 3.0, "b/bo", 1.0));
    assertThat(fs.standings()).extracting(s -> "  ".repeat(s.depth()) + s.account() + (s.user() == null ? ""
        : "/" + s.user())).containsExactly("root", "  a", "    a/amy", "    a/zed", "    a2", "  b", "    b/bo");
    // Root as slurmctld shows it under Fair Tree: no level shares, all of the usage.
    FairShare.Standing root = fs.standings().get(0);
    assertThat(List.of(root.rawUsage(), root.normShares(), root.effectiveUsage())).containsExactly(4.0, 0.0, 1.0);
    assertThat(byName(fs).get("a/amy").normUsage()).isEqualTo(0.75);
  }

  private static FairShare fairTree(List<Account> accounts, List<UserAssociation> users, Map<String, Double> used) {
    return FairShare.compute(FairShareAlgorithm.FAIR_TREE, accounts, users, ledger(used));
  }

  /** Usage by {@code account/user}, billed at T0. */
  private static UsageLedger ledger(Map<String, Double> used) {
    List<UsageLedger.Use> uses = new ArrayList<>();
    used.forEach((assoc, u) -> {
      String[] au = assoc.split("/");
      uses.add(new UsageLedger.Use(au[0], au[1], "normal", u, u));
    });
    return UsageLedger.empty(T0, Duration.ofDays(7)).plus(uses, T0);
  }

  private static Map<String, FairShare.Standing> byName(FairShare fs) {
    Map<String, FairShare.Standing> out = new java.util.TreeMap<>();
    fs.standings().forEach(s -> out.put(s.user() == null ? s.account() : s.account() + "/" + s.user(), s));
    return out;
  }
}
