package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.money.Budget;
import io.squall.core.money.BudgetPeriod;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Budgets per account ({@code squall.accounts.NAME.*-limit-usd}); one that makes no sense stops start-up, naming its key. */
class BudgetConfigTest {
  private static PartitionConfig gpu() {
    PartitionConfig p = new PartitionConfig("gpu");
    p.setNodes("node-[1-2]");
    return p;
  }

  private static ClusterLayout layout(AccountConfig... accounts) {
    return new ClusterLayout(List.of(gpu()), List.of(accounts), List.of(), new SquallConfig());
  }

  private static AccountConfig account(String name, Double soft, Double hard) {
    AccountConfig a = new AccountConfig(name);
    a.setSoftLimitUsd(soft);
    a.setHardLimitUsd(hard);
    return a;
  }

  @Test
  void aBudgetIsMonthlyInUsdWithAlertsAt50_80And100PercentByDefault() {
    AccountConfig vision = account("vision", null, null);
    vision.setParent("ml");
    List<Budget> budgets = layout(account("ml", 800.0, 1000.0), vision).budgets();
    assertThat(budgets).containsExactly(new Budget("ml", 800.0, 1000.0, BudgetPeriod.MONTH, false, List.of(50, 80, 100)));
  }

  @Test
  void nonsenseIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> layout(account("ml", -1.0, null)))
        .hasMessage("squall.accounts.ml.soft-limit-usd: a budget is US dollars, 0 or more, not -1.0");
    assertThatThrownBy(() -> layout(account("ml", 900.0, 500.0)))
        .hasMessage("squall.accounts.ml.soft-limit-usd: 900.0 is above hard-limit-usd 500.0; the soft limit comes first");
    AccountConfig euros = account("ml", null, 100.0);
    euros.setCurrency("EUR");
    assertThatThrownBy(() -> layout(euros))
        .hasMessage("squall.accounts.ml.currency: 'EUR' is not supported: prices and budgets are in USD");
    AccountConfig yearly = account("ml", null, 100.0);
    yearly.setBudgetPeriod("year");
    assertThatThrownBy(() -> layout(yearly))
        .hasMessage("squall.accounts.ml.budget-period: 'year' is not day, week or month");
    AccountConfig alerts = account("ml", null, 100.0);
    alerts.setBudgetAlerts(List.of(50, 0));
    assertThatThrownBy(() -> layout(alerts))
        .hasMessage("squall.accounts.ml.budget-alerts: 0 is not a percentage from 1 to 1000");
    AccountConfig orphan = account("vision", null, 100.0);
    orphan.setParent("nobody");
    assertThatThrownBy(() -> layout(orphan))
        .hasMessage("squall.accounts.vision.parent: no account 'nobody' under squall.accounts");
    AccountConfig stop = account("ml", 10.0, null);
    stop.setStopAtHardLimit(true);
    assertThatThrownBy(() -> layout(stop)).hasMessage("squall.accounts.ml.stop-at-hard-limit: set hard-limit-usd too");
  }
}
