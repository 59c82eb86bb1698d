package io.squall.api.money;

import io.micronaut.json.JsonMapper;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.jobs.JobLifecycle;
import io.squall.api.metrics.SquallMetrics;
import io.squall.api.state.JobHistory;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.store.BudgetAlertRepository;
import io.squall.api.store.BudgetAlertRow;
import io.squall.core.model.JobState;
import io.squall.core.money.Budget;
import io.squall.core.money.BudgetLimits;
import io.squall.core.money.Budgets;
import io.squall.core.money.Charges;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's side of budgets: adds spend up per account (core's {@link Budgets} over the
 * stored {@link Costs}) every {@code budget-interval}, gives the scheduler what the budgets still
 * allow, raises each alert once (log, metrics, optional webhook, stored), and stops the running
 * jobs of an account past a hard limit that says {@code stop-at-hard-limit}.
 *
 * <p>Thread-safe: the scheduling thread calls {@link #limits}; readers call {@link #standings}.
 */
@Singleton
public final class BudgetWatch {
  private static final Logger LOG = LoggerFactory.getLogger(BudgetWatch.class);

  private final Budgets budgets;
  private final SquallConfig config;
  private final Costs costs;
  private final StateWriter writer;
  private final JobHistory history;
  private final PartitionPrices partitionPrices;
  private final BudgetAlertRepository alerts;
  private final JobLifecycle lifecycle;
  private final SquallMetrics metrics;
  private final InstantSource clock;
  private final JsonMapper json;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private Instant refreshedAt;
  private List<Budgets.Standing> standings = List.of();
  private BudgetLimits limits = BudgetLimits.NONE;
  private Set<List<Object>> raised;

  public BudgetWatch(ClusterLayout layout, SquallConfig config, Costs costs, StateWriter writer, JobHistory history,
      PartitionPrices partitionPrices,
      BudgetAlertRepository alerts, JobLifecycle lifecycle, SquallMetrics metrics, InstantSource clock,
      JsonMapper json) {
    this.budgets = new Budgets(layout.budgets(), layout.accounts());
    this.config = config;
    this.costs = costs;
    this.writer = writer;
    this.history = history;
    this.partitionPrices = partitionPrices;
    this.alerts = alerts;
    this.lifecycle = lifecycle;
    this.metrics = metrics;
    this.clock = clock;
    this.json = json;
  }

  /** What the budgets allow at {@code now}, spend added up again when {@code budget-interval} has passed. */
  public synchronized BudgetLimits limits(Instant now) {
    if (budgets.isEmpty()) {
      return BudgetLimits.NONE;
    }
    if (refreshedAt == null || !now.isBefore(refreshedAt.plus(config.getBudgetInterval()))) {
      try {
        refresh(now);
        refreshedAt = now;
      } catch (RuntimeException e) {
        LOG.warn("budgets: cannot add spend up; the last figures stand", e);
      }
    }
    return limits;
  }

  /** Each budget's standing as last added up (none before the first scheduling cycle). */
  public synchronized List<Budgets.Standing> standings() {
    return standings;
  }

  /** The accounts past a soft limit (theirs or a parent's) as last added up: their jobs run on spot only. */
  public synchronized Set<String> spotOnlyAccounts() {
    return limits.spotOnly();
  }

  /** The budgets a job of {@code account} spends against: its own and its parents'. */
  public List<String> budgetsOf(String account) {
    return budgets.budgetsOf(account);
  }

  public List<Budget> budgets() {
    return budgets.all();
  }

  private void refresh(Instant now) {
    standings = budgets.standings(now, config.zoneId(), this::spendByAccount);
    limits = budgets.limits(standings, partitionPrices.worstPerGpuHour());
    Map<String, Double> spent = new TreeMap<>();
    Map<List<String>, Double> limitGauges = new LinkedHashMap<>();
    for (Budgets.Standing s : standings) {
      Budget b = s.budget();
      spent.put(b.account(), s.spentUsd());
      if (b.softUsd() != null) {
        limitGauges.put(List.of(b.account(), "soft"), b.softUsd());
      }
      if (b.hardUsd() != null) {
        limitGauges.put(List.of(b.account(), "hard"), b.hardUsd());
      }
      raiseAlerts(s, now);
      if (s.hardReached() && b.stopAtHardLimit()) {
        stopRunningJobs(s);
      }
    }
    metrics.budgets(spent, limitGauges);
  }

  /** What each account's own jobs cost from {@code since} until now. */
  private Map<String, Double> spendByAccount(Instant since) {
    Map<String, Double> out = new TreeMap<>();
    Map<String, Charges.JobCharge> charges = costs.between(since, clock.instant()).charges().jobs();
    Map<String, JobHistory.Owner> owners = history.owners(writer.state(), charges.keySet());
    charges.forEach((key, charge) -> {
      JobHistory.Owner o = owners.get(key);
      if (o != null) {
        out.merge(o.account(), charge.usd(), Double::sum);
      }
    });
    return out;
  }

  private void raiseAlerts(Budgets.Standing s, Instant now) {
    if (raised == null) {
      raised = new HashSet<>();
      alerts.findAllOrderById().forEach(a -> raised.add(List.of(a.account(), a.periodStart(), a.percent())));
    }
    for (int pct : s.alertsReached()) {
      List<Object> key = List.of(s.budget().account(), s.since(), pct);
      if (raised.contains(key)) {
        continue;
      }
      alerts.save(new BudgetAlertRow(null, s.budget().account(), s.since(), pct, s.spentUsd(), now));
      raised.add(key);
      LOG.warn("budget alert: account {} has spent {} USD since {}: {} % of its budget of {} USD",
          s.budget().account(), Usd.round(s.spentUsd()), s.since(), pct, s.budget().alertBase());
      webhook(s, pct, now);
    }
  }

  /** POSTs the alert as JSON to {@code budget-webhook}, off this thread; a failure is logged, not retried. */
  private void webhook(Budgets.Standing s, int pct, Instant now) {
    if (config.getBudgetWebhook() == null) {
      return;
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("account", s.budget().account());
    body.put("percent", pct);
    body.put("spent_usd", Usd.round(s.spentUsd()));
    body.put("soft_limit_usd", s.budget().softUsd());
    body.put("hard_limit_usd", s.budget().hardUsd());
    body.put("period_start", s.since().toString());
    body.put("raised_at", now.toString());
    try {
      HttpRequest request = HttpRequest.newBuilder(URI.create(config.getBudgetWebhook()))
          .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body))).build();
      http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
        if (e != null || r.statusCode() >= 300) {
          LOG.warn("budget webhook {}: {}", config.getBudgetWebhook(), e != null ? e.toString() : "HTTP " + r.statusCode());
        }
      });
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn("budget webhook {}: {}", config.getBudgetWebhook(), e.toString());
    }
  }

  /** Cancels the running jobs of the account and its sub-accounts: it said stop-at-hard-limit. */
  private void stopRunningJobs(Budgets.Standing s) {
    String account = s.budget().account();
    writer.write(b -> {
      List<StoredJob> running = new ArrayList<>();
      for (StoredJob j : writer.state().jobs()) {
        if (j.job().state() == JobState.RUNNING && budgets.budgetsOf(j.job().account()).contains(account)) {
          running.add(b.job(j.key()));
        }
      }
      for (StoredJob j : running) {
        if (j != null && j.job().state() == JobState.RUNNING) {
          lifecycle.stop(b, j, JobState.CANCELLED, "account " + account + " is past its hard budget of "
              + s.budget().hardUsd() + " USD (stop-at-hard-limit)");
        }
      }
      return null;
    }).join();
  }
}
