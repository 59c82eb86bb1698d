package io.squall.core.money;

import io.squall.core.model.Qos;
import io.squall.core.provider.CapacityType;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one scheduling cycle knows of budgets: the hard budget each budgeted account has left this
 * period, which budgeted accounts each account's spend rolls into (itself and its ancestors), the
 * accounts that may run on spot only (past a soft limit), and the most a GPU-hour may cost in
 * each partition, per capacity type it may buy, the price a job's worst-case cost is checked at
 * (a partition or type not listed: nothing is billed).
 */
public record BudgetLimits(Map<String, Double> hardLeftUsd, Map<String, List<String>> rollsInto, Set<String> spotOnly,
    Map<String, Map<CapacityType, Double>> worstUsdPerGpuHour) {
  public static final BudgetLimits NONE = new BudgetLimits(Map.of(), Map.of(), Set.of(), Map.of());

  public BudgetLimits {
    hardLeftUsd = Map.copyOf(hardLeftUsd);
    rollsInto = Map.copyOf(rollsInto);
    spotOnly = Set.copyOf(spotOnly);
    worstUsdPerGpuHour = Map.copyOf(worstUsdPerGpuHour);
  }

  /**
   * What the machines of a job's nodes may have been bought as: its QOS's capacity (either type
   * without a QOS), spot only while its account is past a soft budget. The fleet buys new machines
   * by the same rules; this keeps the job off machines already up of the other kind, and prices
   * its worst case.
   */
  public Set<CapacityType> runsOn(String account, Qos qos) {
    Set<CapacityType> types = qos == null ? EnumSet.allOf(CapacityType.class) : qos.runsOn();
    if (account != null && spotOnly.contains(account)) {
      return types.contains(CapacityType.SPOT) ? Set.of(CapacityType.SPOT) : Set.of();
    }
    return types;
  }

  /** The budgeted accounts a job of {@code account} spends against, with a hard limit or not. */
  public List<String> budgetsOf(String account) {
    return account == null ? List.of() : rollsInto.getOrDefault(account, List.of());
  }

  /**
   * What a job may cost at worst in the partition: its GPUs for its whole time limit at the
   * partition's dearest price among the capacity types it may run on ({@code runsOn}: spot only
   * past a soft limit, say); infinite without a time limit where GPU time is billed.
   */
  public double worstCostUsd(String partition, Set<CapacityType> runsOn, int gpus, long limitSeconds) {
    Map<CapacityType, Double> prices = worstUsdPerGpuHour.getOrDefault(partition, Map.of());
    double price = 0;
    for (CapacityType t : runsOn) {
      price = Math.max(price, prices.getOrDefault(t, 0.0));
    }
    if (price == 0 || gpus == 0) {
      return 0;
    }
    return limitSeconds == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : price * gpus * limitSeconds / 3600.0;
  }
}
