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
  private final MultiGauge jobs;
  private final MultiGauge nodes;

  public SquallMetrics(MeterRegistry registry) {
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
