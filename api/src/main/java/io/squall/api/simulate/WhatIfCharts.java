package io.squall.api.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What the what-if page's charts draw, computed here so that the page's script only hands it to
 * ECharts: every time series as {@code [hours, value]} points, budget lines already labelled, and
 * the waits as a cumulative distribution. Serialised to JSON as it stands (the records' names are
 * the page script's names).
 */
final class WhatIfCharts {
  private WhatIfCharts() {}

  /**
   * @param configurations the runs' names, in the order they were given (a column and a colour each)
   * @param cost one chart per account, in account order
   * @param nodes one chart per configuration
   * @param waits one curve per configuration: {@code [minutes, share of started jobs that waited at
   *     most that long]}
   */
  record Page(List<String> configurations, List<AccountCost> cost, List<Line> queued, List<Line> runningGpus,
      List<Nodes> nodes, List<Line> waits) {}

  /** One account's spend over time, a line per configuration. */
  record AccountCost(String account, List<CostLine> lines) {}

  /** @param budgets the horizontal lines drawn with this configuration's curve */
  record CostLine(String configuration, List<double[]> points, List<BudgetLine> budgets) {}

  /** @param kind {@code soft} or {@code hard} (the page draws them differently) */
  record BudgetLine(String kind, double usd, String label) {}

  record Line(String configuration, List<double[]> points) {}

  record Nodes(String configuration, List<double[]> spot, List<double[]> onDemand) {}

  static Page of(List<ReportRun> runs) {
    List<String> names = runs.stream().map(ReportRun::name).toList();
    List<AccountCost> cost = new ArrayList<>();
    for (String account : accounts(runs)) {
      List<List<BudgetLine>> budgets = budgetLines(account, runs);
      List<CostLine> lines = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        List<double[]> points = new ArrayList<>();
        for (ReportRun.Sample s : runs.get(i).samples()) {
          // An account that has not spent yet is not in the sample: it has spent nothing.
          points.add(new double[] {s.hours(), s.spentUsd().getOrDefault(account, 0.0)});
        }
        lines.add(new CostLine(names.get(i), points, budgets.get(i)));
      }
      cost.add(new AccountCost(account, lines));
    }
    List<Line> queued = new ArrayList<>();
    List<Line> running = new ArrayList<>();
    List<Nodes> nodes = new ArrayList<>();
    List<Line> waits = new ArrayList<>();
    for (ReportRun r : runs) {
      List<double[]> q = new ArrayList<>();
      List<double[]> g = new ArrayList<>();
      List<double[]> spot = new ArrayList<>();
      List<double[]> onDemand = new ArrayList<>();
      for (ReportRun.Sample s : r.samples()) {
        q.add(new double[] {s.hours(), s.queued()});
        g.add(new double[] {s.hours(), s.runningGpus()});
        spot.add(new double[] {s.hours(), s.spotNodes()});
        onDemand.add(new double[] {s.hours(), s.onDemandNodes()});
      }
      queued.add(new Line(r.name(), q));
      running.add(new Line(r.name(), g));
      nodes.add(new Nodes(r.name(), spot, onDemand));
      waits.add(new Line(r.name(), waitDistribution(r.waitsSeconds())));
    }
    return new Page(names, cost, queued, running, nodes, waits);
  }

  /**
   * The empirical cumulative distribution of the waits, one point per distinct wait (in minutes),
   * starting at {@code [0, share that did not wait]}; drawn as a step after each point.
   */
  static List<double[]> waitDistribution(List<Long> waitsSeconds) {
    List<Long> sorted = waitsSeconds.stream().sorted().toList();
    List<double[]> points = new ArrayList<>();
    int n = sorted.size();
    if (n == 0) {
      return points;
    }
    if (sorted.get(0) > 0) {
      points.add(new double[] {0, 0});
    }
    for (int i = 0; i < n; i++) {
      if (i == n - 1 || !sorted.get(i + 1).equals(sorted.get(i))) {
        points.add(new double[] {sorted.get(i) / 60.0, (i + 1) / (double) n});
      }
    }
    return points;
  }

  /** Every account that spent in some run or has a figure, sorted: the same order in every report. */
  private static TreeSet<String> accounts(List<ReportRun> runs) {
    TreeSet<String> accounts = new TreeSet<>();
    for (ReportRun r : runs) {
      for (Object account : accountFigures(r).keySet()) {
        accounts.add(String.valueOf(account));
      }
      for (ReportRun.Sample s : r.samples()) {
        accounts.addAll(s.spentUsd().keySet());
      }
    }
    return accounts;
  }

  /**
   * The budget lines to draw with each run's curve. A limit the runs agree on is drawn once, with
   * the first run's curve; limits that differ are drawn with each run's curve and named after it,
   * so a chart never shows two unnamed lines for one limit.
   */
  private static List<List<BudgetLine>> budgetLines(String account, List<ReportRun> runs) {
    List<List<BudgetLine>> perRun = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      perRun.add(new ArrayList<>());
    }
    for (String kind : List.of("soft", "hard")) {
      List<Double> limits = runs.stream().map(r -> limit(r, account, kind + "_usd")).toList();
      boolean agreed = limits.stream().allMatch(l -> Objects.equals(l, limits.get(0)));
      for (int i = 0; i < runs.size(); i++) {
        Double usd = limits.get(i);
        if (usd == null || (agreed && i > 0)) {
          continue;
        }
        String label = kind + " budget" + (agreed ? "" : " (" + runs.get(i).name() + ")");
        perRun.get(i).add(new BudgetLine(kind, usd, label));
      }
    }
    return perRun;
  }

  /** The account's limit of that name in the run's figures ({@link WhatIfFigures}); null for none. */
  private static Double limit(ReportRun run, String account, String name) {
    return accountFigures(run).get(account) instanceof Map<?, ?> figures
        && figures.get(name) instanceof Number usd ? usd.doubleValue() : null;
  }

  private static Map<?, ?> accountFigures(ReportRun run) {
    return run.figures().get("accounts") instanceof Map<?, ?> accounts ? accounts : Map.of();
  }
}
