package io.squall.api.money;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.squall.api.auth.Caller;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.state.ApiException;
import io.squall.api.state.StateWriter;
import io.squall.api.state.JobHistory;
import io.squall.api.web.TextRules;
import io.squall.api.web.TimeParameter;
import io.squall.core.model.Account;
import io.squall.core.money.Charges;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code GET /v1/reports/cost}: the chargeback report. What the jobs' holds on billed instances
 * cost in a period, grouped by user, account, partition or day, with what the same node-time
 * would have cost on demand and so what spot saved. Operators also see the overhead (billed time
 * no job held) by partition and the total billed; users see their own jobs only.
 */
@Controller("/v1/reports")
@Tag(name = "accounting")
public final class CostReportController {
  private final Costs costs;
  private final StateWriter writer;
  private final JobHistory history;
  private final ClusterLayout layout;
  private final InstantSource clock;
  private final ZoneId zone;

  public CostReportController(Costs costs, StateWriter writer, JobHistory history, ClusterLayout layout,
      InstantSource clock, SquallConfig config) {
    this.costs = costs;
    this.writer = writer;
    this.history = history;
    this.layout = layout;
    this.clock = clock;
    this.zone = config.zoneId();
  }

  /** How rows are grouped. */
  private enum By { USER, ACCOUNT, PARTITION, DAY }

  /** One row's sums. */
  private static final class Sums {
    final Set<String> jobs = new TreeSet<>();
    double usd;
    double onDemandUsd;
    double gpuHours;
    double lostUsd;

    void add(String job, Charges.JobCharge c) {
      jobs.add(job);
      usd += c.usd();
      onDemandUsd += c.onDemandUsd();
      gpuHours += c.gpuHours();
    }

    Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("jobs", jobs.size());
      m.put("gpu_hours", Math.round(gpuHours * 1000) / 1000.0);
      m.put("cost_usd", Usd.round(usd));
      m.put("on_demand_usd", Usd.roundOrNull(onDemandUsd));
      m.put("savings_usd", Usd.roundOrNull(onDemandUsd - usd));
      m.put("savings_pct", Double.isNaN(onDemandUsd) || onDemandUsd <= 0 ? null
          : Math.round((onDemandUsd - usd) / onDemandUsd * 1000) / 10.0);
      m.put("lost_usd", Usd.round(lostUsd));
      return m;
    }
  }

  @Operation(summary = "Cost by user, account, partition or day in [since, until): default the month so far, by account")
  @Get("/cost")
  public Map<String, Object> cost(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @Nullable @QueryValue String since,
      @Nullable @QueryValue String until, @Nullable @QueryValue String account, @Nullable @QueryValue String by) {
    Instant now = clock.instant();
    Instant from = since == null ? LocalDate.now(clock.withZone(zone)).withDayOfMonth(1).atStartOfDay(zone).toInstant()
        : TimeParameter.parse("since", since, zone);
    Instant to = until == null ? now : TimeParameter.parse("until", until, zone);
    if (!to.isAfter(from)) {
      throw ApiException.badRequest("until=" + (until == null ? "now" : until) + ": must be after since="
          + (since == null ? from : since));
    }
    By grouping = by(by);
    Set<String> accounts = account == null ? null : withSubAccounts(TextRules.plain("account", account, 128));
    List<Instant> cuts = grouping == By.DAY ? days(from, to) : List.of(from, to);
    List<Costs.Period> periods = costs.periods(cuts);

    Map<String, Sums> rows = new TreeMap<>();
    Sums total = new Sums();
    for (Costs.Period p : periods) {
      String day = LocalDate.ofInstant(p.from(), zone).toString();
      Map<String, JobHistory.Owner> owners = history.owners(writer.state(), p.charges().jobs().keySet());
      for (Map.Entry<String, Charges.JobCharge> e : p.charges().jobs().entrySet()) {
        JobHistory.Owner o = owners.get(e.getKey());
        if (o == null || !caller.mayControl(o.user()) || accounts != null && !accounts.contains(o.account())) {
          continue;
        }
        String key = switch (grouping) {
          case USER -> o.user();
          case ACCOUNT -> o.account();
          case PARTITION -> o.partition() == null ? "" : o.partition();
          case DAY -> day;
        };
        Sums row = rows.computeIfAbsent(key, k -> new Sums());
        row.add(e.getKey(), e.getValue());
        total.add(e.getKey(), e.getValue());
        double lost = p.lostUsd().getOrDefault(e.getKey(), 0.0);
        row.lostUsd += lost;
        total.lostUsd += lost;
      }
    }
    String byName = grouping.name().toLowerCase(Locale.ROOT);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("since", from.toString());
    out.put("until", periods.get(periods.size() - 1).to().toString());
    out.put("by", byName);
    out.put("account", account);
    List<Map<String, Object>> list = new ArrayList<>();
    rows.forEach((k, v) -> {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put(byName, k);
      row.putAll(v.json());
      list.add(row);
    });
    out.put("rows", list);
    Map<String, Object> totals = total.json();
    if (caller.operator() && accounts == null) {
      Map<String, Double> overhead = new TreeMap<>();
      double billed = 0;
      for (Costs.Period p : periods) {
        p.overheadByPartition().forEach((k, v) -> overhead.merge(k, v, Double::sum));
        billed += p.charges().billed();
      }
      List<Map<String, Object>> oh = new ArrayList<>();
      overhead.forEach((k, v) -> {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("partition", k);
        row.put("usd", Usd.round(v));
        oh.add(row);
      });
      out.put("overhead", oh);
      totals.put("overhead_usd", Usd.round(overhead.values().stream().mapToDouble(Double::doubleValue).sum()));
      totals.put("billed_usd", Usd.round(billed));
    }
    out.put("totals", totals);
    return out;
  }

  private static By by(String text) {
    if (text == null) {
      return By.ACCOUNT;
    }
    for (By b : By.values()) {
      if (b.name().equalsIgnoreCase(text.strip())) {
        return b;
      }
    }
    throw ApiException.badRequest("by=" + text + ": expected user, account, partition or day");
  }

  /** The account and every account under it: a team's spend rolls its sub-accounts up. */
  private Set<String> withSubAccounts(String account) {
    if (!layout.accounts().isEmpty() && layout.accounts().stream().noneMatch(a -> a.name().equals(account))) {
      throw ApiException.badRequest("account=" + account + ": no such account under squall.accounts");
    }
    Set<String> out = new TreeSet<>(Set.of(account));
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Account a : layout.accounts()) {
        if (a.parent() != null && out.contains(a.parent()) && out.add(a.name())) {
          grew = true;
        }
      }
    }
    return out;
  }

  /** A job's partition: where it ran (a job submitted to several runs in one). */
  /** Midnights in the cluster's zone from {@code from} to {@code to}, with both ends. */
  private List<Instant> days(Instant from, Instant to) {
    List<Instant> cuts = new ArrayList<>(List.of(from));
    LocalDate day = LocalDate.ofInstant(from, zone).plusDays(1);
    while (day.atStartOfDay(zone).toInstant().isBefore(to)) {
      if (cuts.size() > 3660) {
        throw ApiException.badRequest("since=" + from + ": a report by day covers ten years at most");
      }
      cuts.add(day.atStartOfDay(zone).toInstant());
      day = day.plusDays(1);
    }
    cuts.add(to);
    return cuts;
  }
}
