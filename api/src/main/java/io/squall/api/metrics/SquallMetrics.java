package io.squall.api.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The controller's Prometheus figures: queue depth by state and reason, nodes by state, cycle
 * time, jobs started and finished, provider launch calls and orphans terminated. Gauges are refreshed after each scheduling cycle.
 */
@Singleton
public final class SquallMetrics {
  private final Counter started;
  private final Counter finished;
  private final Counter launchCalls;
  private final Counter orphans;
  private final Timer cycle;
  private final MeterRegistry registry;
  private final Counter duplicateNotices;
  private final Counter lostGpuSeconds;
  private final MultiGauge jobs;
  private final MultiGauge nodes;
  private final MultiGauge spend;
  private final MultiGauge budget;

  public SquallMetrics(MeterRegistry registry) {
    this.registry = registry;
    duplicateNotices = Counter.builder("squall.interruptions.duplicates")
        .description("interruption notices for a node already being drained (handled once)").register(registry);
    lostGpuSeconds = Counter.builder("squall.interruptions.lost.gpu.seconds")
        .description("GPU time since the last checkpoint of jobs stopped by interruptions").register(registry);
    started = Counter.builder("squall.jobs.started").description("jobs (and array tasks) started").register(registry);
    finished = Counter.builder("squall.jobs.finished").description("jobs that ended or were requeued").register(registry);
    launchCalls = Counter.builder("squall.provider.launch.calls").description("launch calls made to the provider")
        .register(registry);
    orphans = Counter.builder("squall.provider.orphans.terminated")
        .description("instances found with the cluster tag but unaccounted for, terminated at start-up").register(registry);
    cycle = Timer.builder("squall.scheduler.cycle").description("one scheduling cycle: snapshot, plan, apply")
        .register(registry);
    jobs = MultiGauge.builder("squall.jobs").description("jobs by state and pending reason").register(registry);
    nodes = MultiGauge.builder("squall.nodes").description("nodes by state").register(registry);
    spend = MultiGauge.builder("squall.account.spend.usd").description("what an account spent this budget period")
        .register(registry);
    budget = MultiGauge.builder("squall.account.budget.usd").description("an account's budget limits (soft, hard)")
        .register(registry);
  }

  /** Each budgeted account's spend this period and its limits ({account, limit} → US dollars). */
  public void budgets(Map<String, Double> spentByAccount, Map<List<String>, Double> limits) {
    List<MultiGauge.Row<?>> spendRows = new ArrayList<>();
    spentByAccount.forEach((a, usd) -> spendRows.add(MultiGauge.Row.of(Tags.of("account", a), usd)));
    spend.register(spendRows, true);
    List<MultiGauge.Row<?>> limitRows = new ArrayList<>();
    limits.forEach((k, usd) -> limitRows.add(MultiGauge.Row.of(Tags.of("account", k.get(0), "limit", k.get(1)), usd)));
    budget.register(limitRows, true);
  }

  public void jobStarted() {
    started.increment();
  }

  public void jobFinished() {
    finished.increment();
  }

  public void launchCalled() {
    launchCalls.increment();
  }

  public void orphanTerminated() {
    orphans.increment();
  }

  /** An interruption notice taken in, by where it came from and what it says. */
  public void interruption(String source, String kind) {
    Counter.builder("squall.interruptions").description("interruption notices handled")
        .tag("source", source).tag("kind", kind).register(registry).increment();
  }

  public void duplicateInterruption() {
    duplicateNotices.increment();
  }

  public void lostWork(double gpuSeconds) {
    lostGpuSeconds.increment(gpuSeconds);
  }

  public void cycleTook(Duration d) {
    cycle.record(d);
  }

  /** @param jobsByStateAndReason {state, reason} → count */
  public void queue(Map<List<String>, Integer> jobsByStateAndReason, Map<String, Integer> nodesByState) {
    List<MultiGauge.Row<?>> jobRows = new ArrayList<>();
    jobsByStateAndReason.forEach((k, v) -> jobRows.add(MultiGauge.Row.of(Tags.of("state", k.get(0), "reason", k.get(1)), v)));
    jobs.register(jobRows, true);
    List<MultiGauge.Row<?>> nodeRows = new ArrayList<>();
    nodesByState.forEach((k, v) -> nodeRows.add(MultiGauge.Row.of(Tags.of("state", k), v)));
    nodes.register(nodeRows, true);
  }
}
