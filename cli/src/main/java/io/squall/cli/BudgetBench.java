package io.squall.cli;

import io.squall.core.model.JobState;
import io.squall.core.money.Budget;
import io.squall.core.money.BudgetPeriod;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import io.squall.core.time.ManualClock;
import io.squall.simulate.ElasticSimulation;
import io.squall.simulate.SimulatedCloud;
import io.squall.simulate.SimulatedProvider;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * {@code squall bench budget}: two teams (accounts) with monthly budgets on one elastic partition,
 * the controller's own budget rules (core {@code Budgets} over the run's charges, added up at each
 * scheduler cycle, every {@link #INTERVAL} at most, as the controller's {@code budget-interval};
 * the scheduler's hard-limit check; spot only past the soft limit through {@code PurchaseRules}).
 *
 * <p>Workload: {@link #JOBS} Philly jobs sampled with the seed as {@code bench elastic} samples
 * them, submitted at seeded exponential gaps of {@link #MEAN_GAP} on average, each of team
 * {@code vision} with probability 2/3, else of {@code speech}. {@code vision}'s budget is small
 * enough that it passes its soft limit and then reaches its hard one; {@code speech}'s is not.
 * Cloud as {@code bench elastic} (no reclaims): seeded spot capacity and spot launch failures,
 * on-demand unlimited; partition policy spot first, on-demand after 5 min.
 *
 * <p>It prints one line per simulated hour and team (spend at the hour's end against the limits,
 * the state, jobs the scheduler started that hour, nodes launched for the team that hour by
 * capacity type) and a JSON line whose {@code started_past_hard_limit} counts the starts at which
 * the team's spend as added up in that cycle plus the job's worst case (its GPUs for its time
 * limit at the partition's dearest price) was over the hard limit: the scheduler must make none.
 */
final class BudgetBench {
  static final int JOBS = 60;
  static final Duration MEAN_GAP = Duration.ofMinutes(6);
  static final Duration INTERVAL = Duration.ofSeconds(10);
  static final int NODES = 256;
  static final List<Budget> BUDGETS = List.of(
      new Budget("speech", 20_000.0, 40_000.0, BudgetPeriod.MONTH, false, List.of()),
      new Budget("vision", 600.0, 1_200.0, BudgetPeriod.MONTH, false, List.of()));

  private BudgetBench() {}

  static int run(Map<String, String> opts, PrintStream out) {
    long seed = Long.parseLong(opts.getOrDefault("seed", "1"));
    long t0 = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Offering> catalogue = ElasticBench.offerings();
    List<ElasticSimulation.JobSpec> work = workload(JOBS, rnd.split());
    long providerSeed = rnd.nextLong();
    Map<String, Integer> capacities = SimulatedCloud.spotCapacities(catalogue, rnd.split());
    ManualClock clock = new ManualClock(ElasticBench.START);
    SimulatedProvider provider = SimulatedCloud.provider(clock, catalogue, capacities, new SplittableRandom(providerSeed));
    ElasticSimulation.Setup setup = ElasticSimulation.Setup.of("bench", "gpu", ElasticBench.nodes(NODES),
        InterruptionBench.POLICY).withSchedulerInterval(INTERVAL).withBudgets(BUDGETS).withMaxTime(Duration.ofDays(3));
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock, provider).run(work);
    long wallMs = (System.nanoTime() - t0) / 1_000_000;

    out.printf(Locale.ROOT, "budget bench: %d Philly jobs (seed %d, one every %d min on average, 2/3 of team vision), "
        + "%d %s nodes, spot first then on-demand after 5 min; budgets per month: %s; spend added up every %d s%n",
        JOBS, seed, MEAN_GAP.toMinutes(), NODES, ElasticBench.INSTANCE_TYPE, describe(BUDGETS), INTERVAL.toSeconds());
    long hours = r.makespan().toHours() + 1;
    Map<String, Duration> softSeen = new TreeMap<>();
    for (ElasticSimulation.BudgetSample s : r.budgetSamples()) {
      if (s.softUsd() != null && s.spentUsd() >= s.softUsd()) {
        softSeen.putIfAbsent(s.account(), s.at());
      }
    }
    for (long h = 0; h < hours; h++) {
      Duration from = Duration.ofHours(h);
      Duration to = Duration.ofHours(h + 1);
      for (Budget b : BUDGETS) {
        String team = b.account();
        double spent = 0;
        for (ElasticSimulation.BudgetSample s : r.budgetSamples()) {
          if (s.account().equals(team) && s.at().compareTo(to) < 0) {
            spent = s.spentUsd();
          }
        }
        long started = r.outcomes().stream().filter(o -> o.account().equals(team))
            .flatMap(o -> o.starts().stream()).filter(s -> !s.at().minus(from).isNegative() && s.at().compareTo(to) < 0)
            .count();
        long waitingForBudget = r.outcomes().stream().filter(o -> o.account().equals(team)
            && "AssocGrpBillingMinutes".equals(o.pendingReason()) && o.submitted().compareTo(to) < 0
            && (o.firstStart() == null || o.firstStart().compareTo(to) >= 0)).count();
        int spot = 0;
        int onDemand = 0;
        for (ElasticSimulation.LaunchRecord l : r.launches()) {
          if (l.accounts().contains(team) && !l.at().minus(from).isNegative() && l.at().compareTo(to) < 0) {
            if (l.capacityType() == CapacityType.SPOT) {
              spot += l.nodes();
            } else {
              onDemand += l.nodes();
            }
          }
        }
        // past-soft: spot only; held: some job waits because spend and the worst cases would pass the hard limit.
        String state = b.hardUsd() != null && spent >= b.hardUsd() ? "past-hard"
            : b.softUsd() != null && spent >= b.softUsd() ? "past-soft" : "ok";
        state = waitingForBudget > 0 ? state + "+held" : state;
        out.printf(Locale.ROOT, "hour %2d %-6s spent $%8.0f soft $%.0f hard $%.0f %-14s started %2d, launched spot %d "
            + "on-demand %d%n", h, team, spent, b.softUsd(), b.hardUsd(), state, started, spot, onDemand);
      }
    }
    int pastHard = 0;
    Map<String, Integer> started = new TreeMap<>();
    Map<String, Integer> held = new TreeMap<>();
    Map<String, Integer> onDemandPastSoft = new TreeMap<>();
    Map<String, Double> spent = new TreeMap<>();
    for (ElasticSimulation.JobOutcome o : r.outcomes()) {
      pastHard += (int) o.starts().stream().filter(ElasticSimulation.StartRecord::pastHardLimit).count();
      started.merge(o.account(), o.firstStart() == null ? 0 : 1, Integer::sum);
      held.merge(o.account(), o.firstStart() == null && o.state() != JobState.COMPLETED ? 1 : 0, Integer::sum);
      spent.merge(o.account(), o.usd(), Double::sum);
    }
    for (ElasticSimulation.LaunchRecord l : r.launches()) {
      for (String team : l.accounts()) {
        Duration soft = softSeen.get(team);
        if (soft != null && l.capacityType() == CapacityType.ON_DEMAND && l.at().compareTo(soft) >= 0) {
          onDemandPastSoft.merge(team, l.nodes(), Integer::sum);
        }
      }
    }
    out.printf(Locale.ROOT, "%d scheduler cycles, %d ms wall%n", r.schedulerCycles(), wallMs);
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("jobs", r.jobs());
    for (Budget b : BUDGETS) {
      String team = b.account();
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("spent_usd", Math.round(spent.getOrDefault(team, 0.0)));
      t.put("soft_usd", b.softUsd());
      t.put("hard_usd", b.hardUsd());
      t.put("soft_reached_at_s", softSeen.containsKey(team) ? softSeen.get(team).toSeconds() : null);
      t.put("jobs_started", started.getOrDefault(team, 0));
      t.put("jobs_held_at_hard_limit", held.getOrDefault(team, 0));
      t.put("on_demand_nodes_launched_past_soft", onDemandPastSoft.getOrDefault(team, 0));
      // The scheduler does not know what a node was bought as: a job started past the soft limit
      // may still be placed on an on-demand node that is up already.
      Duration soft = softSeen.get(team);
      t.put("jobs_started_past_soft_on_on_demand", soft == null ? 0 : r.outcomes().stream()
          .filter(o -> o.account().equals(team) && o.firstStart() != null && o.firstStart().compareTo(soft) >= 0
              && o.capacityTypes().contains(CapacityType.ON_DEMAND)).count());
      line.put(team, t);
    }
    line.put("started_past_hard_limit", pastHard);
    out.println(Json.write(line));
    return 0;
  }

  /** Philly jobs at exponential gaps, two in three of team vision. */
  static List<ElasticSimulation.JobSpec> workload(int count, SplittableRandom rnd) {
    return ElasticBench.arriving(count, MEAN_GAP, rnd, j -> j.withAccount(rnd.nextInt(3) < 2 ? "vision" : "speech"));
  }

  private static String describe(List<Budget> budgets) {
    List<String> out = new ArrayList<>();
    for (Budget b : budgets) {
      out.add(String.format(Locale.ROOT, "%s soft $%.0f hard $%.0f", b.account(), b.softUsd(), b.hardUsd()));
    }
    return String.join(", ", out);
  }
}
