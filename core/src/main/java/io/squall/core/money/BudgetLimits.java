package io.squall.core.money;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one scheduling cycle knows of budgets: the hard budget each budgeted account has left this
 * period, which budgeted accounts each account's spend rolls into (itself and its ancestors), the
 * accounts that may run on spot only (past a soft limit), and the most a GPU-hour may cost in
 * each partition, the price a job's worst-case cost is checked at (0 where nothing is billed).
 */
public record BudgetLimits(Map<String, Double> hardLeftUsd, Map<String, List<String>> rollsInto, Set<String> spotOnly,
    Map<String, Double> worstUsdPerGpuHour) {
  public static final BudgetLimits NONE = new BudgetLimits(Map.of(), Map.of(), Set.of(), Map.of());

  public BudgetLimits {
    hardLeftUsd = Map.copyOf(hardLeftUsd);
    rollsInto = Map.copyOf(rollsInto);
    spotOnly = Set.copyOf(spotOnly);
    worstUsdPerGpuHour = Map.copyOf(worstUsdPerGpuHour);
  }

  /** The budgeted accounts a job of {@code account} spends against, with a hard limit or not. */
  public List<String> budgetsOf(String account) {
    return account == null ? List.of() : rollsInto.getOrDefault(account, List.of());
  }

  /**
   * What a job may cost at worst in the partition: its GPUs for its whole time limit at the
   * partition's worst price; infinite without a time limit where GPU time is billed.
   */
  public double worstCostUsd(String partition, int gpus, long limitSeconds) {
    double price = worstUsdPerGpuHour.getOrDefault(partition, 0.0);
    if (price == 0 || gpus == 0) {
      return 0;
    }
    return limitSeconds == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : price * gpus * limitSeconds / 3600.0;
  }
}
