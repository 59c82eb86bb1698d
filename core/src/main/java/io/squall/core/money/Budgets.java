package io.squall.core.money;

import io.squall.core.model.Account;
import io.squall.core.provider.CapacityType;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Spend against the budgets finance set: an account's spend is its own jobs' plus its
 * sub-accounts', over the budget's calendar period. The controller and the simulator both ask
 * here which accounts are past their limits and what the scheduler may still start.
 */
public final class Budgets {
  private final Map<String, Budget> byAccount = new TreeMap<>();
  private final Map<String, String> parentOf = new HashMap<>();
  private final Set<String> accounts = new TreeSet<>();

  public Budgets(List<Budget> budgets, List<Account> accountTree) {
    budgets.forEach(b -> byAccount.put(b.account(), b));
    for (Account a : accountTree) {
      accounts.add(a.name());
      if (a.parent() != null) {
        parentOf.put(a.name(), a.parent());
      }
    }
    accounts.addAll(byAccount.keySet());
  }

  public boolean isEmpty() {
    return byAccount.isEmpty();
  }

  public List<Budget> all() {
    return List.copyOf(byAccount.values());
  }

  /**
   * Where an account stands this period.
   *
   * @param spentUsd what its jobs and its sub-accounts' cost since {@code since}
   */
  public record Standing(Budget budget, Instant since, double spentUsd) {
    public boolean softReached() {
      return budget.softUsd() != null && spentUsd >= budget.softUsd();
    }

    public boolean hardReached() {
      return budget.hardUsd() != null && spentUsd >= budget.hardUsd();
    }

    /** The alert thresholds reached, in percent of {@link Budget#alertBase()}. */
    public List<Integer> alertsReached() {
      Double base = budget.alertBase();
      return base == null ? List.of()
          : budget.alertPercents().stream().filter(p -> spentUsd >= base * p / 100.0).sorted().toList();
    }
  }

  /** The budgeted accounts {@code account}'s spend counts against: itself and its ancestors that have a budget. */
  public List<String> budgetsOf(String account) {
    List<String> out = new ArrayList<>();
    Set<String> seen = new TreeSet<>();
    for (String a = account; a != null && seen.add(a); a = parentOf.get(a)) {
      if (byAccount.containsKey(a)) {
        out.add(a);
      }
    }
    return out;
  }

  /**
   * Each budget's standing now.
   *
   * @param spendSince what each account's own jobs cost from an instant until now (asked once per period start)
   */
  public List<Standing> standings(Instant now, ZoneId zone, Function<Instant, Map<String, Double>> spendSince) {
    Map<Instant, Map<String, Double>> asked = new HashMap<>();
    List<Standing> out = new ArrayList<>();
    for (Budget b : byAccount.values()) {
      Instant since = b.period().start(now, zone);
      Map<String, Double> spend = asked.computeIfAbsent(since, spendSince);
      double spent = 0;
      for (Map.Entry<String, Double> e : spend.entrySet()) {
        if (budgetsOf(e.getKey()).contains(b.account())) {
          spent += e.getValue();
        }
      }
      out.add(new Standing(b, since, spent));
    }
    return out;
  }

  /**
   * What the scheduler may still start, given the standings and each partition's worst price per
   * GPU-hour by capacity type.
   */
  public BudgetLimits limits(List<Standing> standings, Map<String, Map<CapacityType, Double>> worstUsdPerGpuHour) {
    Map<String, Double> left = new TreeMap<>();
    Set<String> softReached = new TreeSet<>();
    for (Standing s : standings) {
      if (s.budget().hardUsd() != null) {
        left.put(s.budget().account(), s.budget().hardUsd() - s.spentUsd());
      }
      if (s.softReached()) {
        softReached.add(s.budget().account());
      }
    }
    Map<String, List<String>> rollsInto = new TreeMap<>();
    Set<String> spotOnly = new TreeSet<>();
    for (String a : accounts) {
      List<String> chain = budgetsOf(a);
      if (!chain.isEmpty()) {
        rollsInto.put(a, chain);
      }
      if (chain.stream().anyMatch(softReached::contains)) {
        spotOnly.add(a);
      }
    }
    return new BudgetLimits(left, rollsInto, spotOnly, worstUsdPerGpuHour);
  }
}
