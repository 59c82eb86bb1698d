package io.squall.core.money;

import java.util.List;
import java.util.Objects;

/**
 * Finance's limits for one account (a team; its sub-accounts' spend rolls up into it) per
 * calendar period, in US dollars.
 *
 * @param softUsd past it, the account's jobs may run on spot only; null for none
 * @param hardUsd past it, no new job of the account starts (Slurm's reason
 *     {@code AssocGrpBillingMinutes}), nor one whose worst-case cost does not fit what is left;
 *     null for none
 * @param stopAtHardLimit whether the account's running jobs are stopped too once it is past the hard limit
 * @param alertPercents the shares of the budget (the hard limit, else the soft one) at which an alert is raised
 */
public record Budget(String account, Double softUsd, Double hardUsd, BudgetPeriod period, boolean stopAtHardLimit,
    List<Integer> alertPercents) {
  public Budget {
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(period, "period");
    alertPercents = List.copyOf(alertPercents);
  }

  /** The amount alerts are counted against: the hard limit, or the soft one when there is none. */
  public Double alertBase() {
    return hardUsd != null ? hardUsd : softUsd;
  }
}
