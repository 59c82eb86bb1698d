package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.model.Partition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The invariants of DESIGN.md section 5, over random clusters and queues. */
class SchedulerPropertiesTest {
  private final Scheduler scheduler = new Scheduler(SchedulerConfig.defaults()
      .withBackfill(new Backfill(Backfill.defaults().window(), 20, Backfill.defaults().resolution())));

  /** A random cluster with some jobs already running (placed by an earlier cycle) and a queue. */
  private static ClusterSnapshot world(long seed, int nodeCount, int jobCount) {
    RandomGenerator rnd = new SplittableRandom(seed);
    List<Node> nodes = new ArrayList<>();
    for (int i = 1; i <= nodeCount; i++) {
      int gpus = rnd.nextBoolean() ? 8 : 4;
      NodeState state = rnd.nextInt(10) == 0 ? NodeState.DOWN : NodeState.IDLE;
      nodes.add(new Node(String.format("n%03d", i), gpus, "h100", 64, 512_000, Set.of(rnd.nextBoolean() ? "ib" : "eth"),
          "pg" + rnd.nextInt(3), state));
    }
    List<String> names = nodes.stream().map(Node::name).toList();
    List<Partition> parts = List.of(Partition.of("gpu", names).asDefault());
    List<Job> jobs = new ArrayList<>();
    for (long id = 1; id <= jobCount; id++) {
      StringBuilder o = new StringBuilder();
      int n = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(4) : 1;
      o.append("-N ").append(n).append(" --gres=gpu:").append(1 + rnd.nextInt(n > 1 ? 4 : 8));
      o.append(" -t ").append(5 + rnd.nextInt(240));
      if (rnd.nextInt(8) == 0) {
        o.append(" --exclusive");
      }
      if (rnd.nextInt(10) == 0) {
        o.append(" --constraint=ib");
      }
      if (rnd.nextInt(12) == 0) {
        o.append(" --array=0-").append(1 + rnd.nextInt(6));
      }
      if (n > 1 && rnd.nextInt(3) == 0) {
        o.append(" --switches=1@").append(rnd.nextInt(120));
      }
      jobs.add(Fixtures.job(id, o.toString(), T0.minusSeconds(rnd.nextInt(3600))));
    }
    ClusterSnapshot s = Fixtures.snapshot(nodes, parts, jobs);
    // Run one cycle an hour ago and keep what it started, so the queue meets a busy cluster.
    Harness h = new Harness(SchedulerConfig.defaults(), s, T0.minus(Duration.ofMinutes(30 + rnd.nextInt(60))));
    h.cycle();
    return h.snapshot();
  }

  @Property(tries = 60)
  void noGpuIsEverGivenTwice(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 12) int nodes,
      @ForAll @IntRange(min = 0, max = 40) int jobs) {
    ClusterSnapshot s = world(seed, nodes, jobs);
    Plan plan = scheduler.cycle(s, T0);
    Map<String, Set<Integer>> used = new HashMap<>();
    Map<String, Integer> size = new HashMap<>();
    s.nodes().forEach(n -> size.put(n.name(), n.gpus()));
    List<GpuGrant> all = new ArrayList<>();
    s.jobs().stream().filter(j -> j.state().holdsResources()).forEach(j -> all.addAll(j.allocation()));
    plan.starts().forEach(st -> all.addAll(st.grants()));
    for (GpuGrant g : all) {
      for (int idx : g.gpuIndices()) {
        assertThat(idx).isBetween(0, size.get(g.node()) - 1);
        assertThat(used.computeIfAbsent(g.node(), k -> new HashSet<>()).add(idx))
            .as("GPU %d of %s given twice", idx, g.node()).isTrue();
      }
    }
  }

  @Property(tries = 60)
  void aGangIsPlacedWholeOrNotAtAll(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 12) int nodes,
      @ForAll @IntRange(min = 0, max = 40) int jobs) {
    ClusterSnapshot s = world(seed, nodes, jobs);
    Map<Long, Job> byId = new HashMap<>();
    s.jobs().forEach(j -> byId.put(j.key().id(), j));
    Map<String, Integer> gpusOf = new HashMap<>();
    s.nodes().forEach(n -> gpusOf.put(n.name(), n.gpus()));
    for (Action.Start st : scheduler.cycle(s, T0).starts()) {
      Job job = byId.get(st.job().id());
      int wanted = job.request().resources().nodesMin();
      int perNode = job.request().resources().gpusPerNode();
      assertThat(st.grants()).hasSize(wanted);
      // An --exclusive job holds its nodes' GPUs whole.
      assertThat(st.grants()).allSatisfy(g -> assertThat(g.gpuIndices())
          .hasSize(job.exclusive() ? gpusOf.get(g.node()) : perNode));
      assertThat(st.grants().stream().map(GpuGrant::node).distinct().count()).isEqualTo(wanted);
    }
  }

  @Property(tries = 60)
  void plansOnlyNameNodesOfTheirSnapshotThatAcceptWork(@ForAll("seeds") long seed,
      @ForAll @IntRange(min = 1, max = 12) int nodes, @ForAll @IntRange(min = 0, max = 40) int jobs) {
    ClusterSnapshot s = world(seed, nodes, jobs);
    Map<String, Node> known = new HashMap<>();
    s.nodes().forEach(n -> known.put(n.name(), n));
    for (Action.Start st : scheduler.cycle(s, T0).starts()) {
      for (GpuGrant g : st.grants()) {
        assertThat(known).containsKey(g.node());
        assertThat(known.get(g.node()).state().acceptsWork()).isTrue();
      }
    }
  }

  /**
   * Backfill never delays a reservation: every reserved job gets the same start whether or not
   * the jobs ranked below it are in the queue.
   */
  @Property(tries = 60)
  void backfillNeverDelaysAReservation(@ForAll("seeds") long seed, @ForAll @IntRange(min = 2, max = 12) int nodes,
      @ForAll @IntRange(min = 1, max = 40) int jobs) {
    ClusterSnapshot s = world(seed, nodes, jobs);
    Plan full = scheduler.cycle(s, T0);
    // Starts and waits of candidates come in rank order; jobs blocked before ranking never reserve.
    List<JobKey> ranked = new ArrayList<>();
    for (Action a : full.actions()) {
      if (a instanceof Action.Start st) {
        ranked.add(new JobKey(st.job().id(), null));
      } else if (a instanceof Action.Wait w && (w.reason() == PendingReason.RESOURCES || w.reason() == PendingReason.PRIORITY)) {
        ranked.add(w.job());
      }
    }
    for (Action.Wait reserved : full.waits()) {
      if (reserved.expectedStart() == null) {
        continue;
      }
      Set<JobKey> keep = new HashSet<>(ranked.subList(0, ranked.indexOf(reserved.job()) + 1));
      List<Job> truncated = s.jobs().stream()
          .filter(j -> j.state().holdsResources() || keep.contains(new JobKey(j.key().id(), null))).toList();
      Plan alone = scheduler.cycle(s.withJobs(truncated), T0);
      Action.Wait again = alone.waits().stream().filter(w -> w.job().equals(reserved.job())).findFirst().orElseThrow();
      assertThat(again.expectedStart()).as("reservation of %s", reserved.job()).isEqualTo(reserved.expectedStart());
    }
  }

  @Property(tries = 30)
  void theSameInputGivesTheSamePlan(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 12) int nodes,
      @ForAll @IntRange(min = 0, max = 40) int jobs) {
    ClusterSnapshot s = world(seed, nodes, jobs);
    assertThat(scheduler.cycle(s, T0)).isEqualTo(scheduler.cycle(world(seed, nodes, jobs), T0));
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<Long> seeds() {
    return net.jqwik.api.Arbitraries.longs();
  }
}
