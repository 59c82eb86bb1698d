package io.squall.api.money;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.squall.api.auth.Caller;
import io.squall.api.config.SquallConfig;
import io.squall.api.state.ApiException;
import io.squall.api.state.JobHistory;
import io.squall.api.state.StateWriter;
import io.squall.core.money.Budget;
import io.squall.core.money.BudgetPeriod;
import io.squall.core.money.Charges;
import io.squall.core.money.SpendOverTime;
import io.squall.core.provider.CapacityType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * {@code GET /v1/reports/spend}: money over time, as the dashboard draws it. Each budget's spend
 * from the start of its period until now, a running total at evenly spaced points, with its limits
 * (a burn-down); operators also get every account without a budget that spent this month. Beside
 * it, this month's spend by capacity type and what spot saved against on demand. A user sees the
 * budgets their account spends against, as {@code /v1/budgets} shows them, and the money of their
 * own jobs, as {@code /v1/reports/cost} does.
 */
@Controller("/v1/reports")
@Tag(name = "accounting")
public final class SpendController {
  private static final int DEFAULT_POINTS = 48;

  private final Costs costs;
  private final BudgetWatch budgets;
  private final StateWriter writer;
  private final JobHistory history;
  private final InstantSource clock;
  private final ZoneId zone;

  public SpendController(Costs costs, BudgetWatch budgets, StateWriter writer, JobHistory history, InstantSource clock,
      SquallConfig config) {
    this.costs = costs;
    this.budgets = budgets;
    this.writer = writer;
    this.history = history;
    this.clock = clock;
    this.zone = config.zoneId();
  }

  /** One line of the chart: a budget, or (budget null) an account without one, over a month. */
  private record Line(String account, Budget budget, BudgetPeriod period) {}

  @Operation(summary = "Each visible budget's spend over its period so far (points+1 running totals, default 48 "
      + "points), and this month's spend by capacity type with what spot saved")
  @Get("/spend{?points}")
  public Map<String, Object> spend(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Nullable @QueryValue String points) {
    int n = points(points);
    Instant now = clock.instant();
    Instant monthStart = BudgetPeriod.MONTH.start(now, zone);
    Costs.Period month = costs.between(monthStart, now);
    Map<String, JobHistory.Owner> monthOwners = history.owners(writer.state(), month.charges().jobs().keySet());

    List<Line> lines = new ArrayList<>();
    List<String> mine = budgets.budgetsOf(caller.account());
    for (Budget b : budgets.budgets()) {
      if (caller.operator() || mine.contains(b.account())) {
        lines.add(new Line(b.account(), b, b.period()));
      }
    }
    if (caller.operator()) {
      TreeSet<String> unbudgeted = new TreeSet<>();
      monthOwners.values().forEach(o -> unbudgeted.add(o.account()));
      budgets.budgets().forEach(b -> unbudgeted.remove(b.account()));
      unbudgeted.forEach(a -> lines.add(new Line(a, null, BudgetPeriod.MONTH)));
    }

    // One reading of the money per distinct period start (a day, a week, a month), shared by its lines.
    Map<Instant, List<Instant>> cutsByStart = new HashMap<>();
    Map<Instant, List<Map<String, Double>>> spendByStart = new HashMap<>();
    List<Map<String, Object>> out = new ArrayList<>();
    for (Line line : lines) {
      Instant start = line.period().start(now, zone);
      List<Instant> cuts = cutsByStart.computeIfAbsent(start, s -> SpendOverTime.cuts(s, now, n));
      List<Map<String, Double>> spend = spendByStart.computeIfAbsent(start, s -> spendByAccount(cuts));
      Predicate<String> countsFor = line.budget() == null ? line.account()::equals
          : a -> budgets.budgetsOf(a).contains(line.account());
      List<Map<String, Object>> series = new ArrayList<>();
      for (SpendOverTime.Point p : SpendOverTime.cumulative(cuts, spend, countsFor)) {
        series.add(Map.of("time", p.at().toString(), "usd", Usd.round(p.usd())));
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("account", line.account());
      m.put("period", line.period().name().toLowerCase(Locale.ROOT));
      m.put("period_start", start.toString());
      m.put("period_end", line.period().next(now, zone).toString());
      m.put("soft_limit_usd", line.budget() == null ? null : line.budget().softUsd());
      m.put("hard_limit_usd", line.budget() == null ? null : line.budget().hardUsd());
      m.put("points", series);
      out.add(m);
    }

    List<Charges.JobCharge> visible = new ArrayList<>();
    month.charges().jobs().forEach((key, charge) -> {
      JobHistory.Owner o = monthOwners.get(key);
      if (o != null && caller.mayControl(o.user())) {
        visible.add(charge);
      }
    });
    SpendOverTime.ByCapacityType by = SpendOverTime.ByCapacityType.of(visible);
    Map<String, Object> capacity = new LinkedHashMap<>();
    for (CapacityType t : CapacityType.values()) {
      capacity.put(t.name().toLowerCase(Locale.ROOT), Usd.round(by.usd().get(t)));
    }
    Map<String, Object> monthFigures = new LinkedHashMap<>();
    monthFigures.put("since", monthStart.toString());
    monthFigures.put("by_capacity_type", capacity);
    monthFigures.put("cost_usd", Usd.round(by.totalUsd()));
    monthFigures.put("on_demand_usd", Usd.roundOrNull(by.onDemandUsd()));
    monthFigures.put("savings_usd", Usd.roundOrNull(by.savingsUsd()));

    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("now", now.toString());
    reply.put("accounts", out);
    reply.put("month", monthFigures);
    return reply;
  }

  /** For each period between the cuts, what each account's own jobs cost in it. */
  private List<Map<String, Double>> spendByAccount(List<Instant> cuts) {
    List<Costs.Period> periods = costs.periods(cuts);
    // One lookup of the owners for every slice: a job that runs across slices is charged in each.
    Set<String> keys = new HashSet<>();
    periods.forEach(p -> keys.addAll(p.charges().jobs().keySet()));
    Map<String, JobHistory.Owner> owners = history.owners(writer.state(), keys);
    List<Map<String, Double>> out = new ArrayList<>();
    for (Costs.Period p : periods) {
      Map<String, Double> byAccount = new TreeMap<>();
      p.charges().jobs().forEach((key, charge) -> {
        JobHistory.Owner o = owners.get(key);
        if (o != null) {
          byAccount.merge(o.account(), charge.usd(), Double::sum);
        }
      });
      out.add(byAccount);
    }
    return out;
  }

  private static int points(String text) {
    if (text == null) {
      return DEFAULT_POINTS;
    }
    try {
      int n = Integer.parseInt(text.strip());
      if (n >= 1 && n <= SpendOverTime.MAX_POINTS) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiException.badRequest("points=" + text + ": expected a whole number from 1 to " + SpendOverTime.MAX_POINTS);
  }
}
