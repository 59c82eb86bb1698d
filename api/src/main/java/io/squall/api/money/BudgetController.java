package io.squall.api.money;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.RequestAttribute;
import io.squall.api.auth.Caller;
import io.squall.api.store.BudgetAlertRepository;
import io.squall.api.store.BudgetAlertRow;
import io.squall.core.money.Budget;
import io.squall.core.money.Budgets;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/budgets}: each account's budget as configured, its spend this period, and the
 * alerts raised. Operators see every budget; a user the budgets their own account spends against.
 */
@Controller("/v1/budgets")
@Tag(name = "accounting")
public final class BudgetController {
  private final BudgetWatch watch;
  private final BudgetAlertRepository alerts;

  public BudgetController(BudgetWatch watch, BudgetAlertRepository alerts) {
    this.watch = watch;
    this.alerts = alerts;
  }

  @Operation(summary = "Budgets per account: limits, period, spend so far (as of the last scheduling cycle), state, alerts")
  @Get
  public Map<String, Object> budgets(@RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
    List<String> mine = watch.budgetsOf(caller.account());
    Map<String, Budgets.Standing> standing = new LinkedHashMap<>();
    watch.standings().forEach(s -> standing.put(s.budget().account(), s));
    List<Map<String, Object>> out = new ArrayList<>();
    for (Budget b : watch.budgets()) {
      if (!caller.operator() && !mine.contains(b.account())) {
        continue;
      }
      Budgets.Standing s = standing.get(b.account());
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("account", b.account());
      m.put("currency", "USD");
      m.put("period", b.period().name().toLowerCase(java.util.Locale.ROOT));
      m.put("soft_limit_usd", b.softUsd());
      m.put("hard_limit_usd", b.hardUsd());
      m.put("stop_at_hard_limit", b.stopAtHardLimit());
      m.put("alert_percents", b.alertPercents());
      m.put("period_start", s == null ? null : s.since().toString());
      m.put("spent_usd", s == null ? null : Usd.round(s.spentUsd()));
      m.put("state", s == null ? "unknown" : s.hardReached() ? "hard-limit" : s.softReached() ? "soft-limit" : "ok");
      List<Map<String, Object>> raised = new ArrayList<>();
      for (BudgetAlertRow a : alerts.findAllOrderById()) {
        if (a.account().equals(b.account()) && s != null && a.periodStart().equals(s.since())) {
          raised.add(Map.of("percent", a.percent(), "spent_usd", Usd.round(a.spentUsd()), "raised_at",
              a.raisedAt().toString()));
        }
      }
      m.put("alerts", raised);
      out.add(m);
    }
    return Map.of("budgets", out);
  }
}
