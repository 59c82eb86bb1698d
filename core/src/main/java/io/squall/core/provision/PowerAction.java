package io.squall.core.provision;

import io.squall.core.provider.Offering;
import java.util.List;

/** One decision of the power planner; the controller (or the simulator) carries it out. */
public sealed interface PowerAction {
  /**
   * Launch these nodes of one partition and placement group together, all or nothing, as this
   * offering. Record the intent with its token before calling the provider.
   *
   * @param providerPlacementGroup the provider's placement group name (zonal: it carries the zone)
   * @param why why this offering, in words, for the jobs' detail (its price, expected rework, the
   *     rules that applied)
   */
  record Launch(String partition, String placementGroup, List<String> nodes, Offering offering,
      String providerPlacementGroup, String idempotencyToken, String why) implements PowerAction {
    public Launch {
      nodes = List.copyOf(nodes);
    }
  }

  /**
   * One gang's launch across several placement groups: one call per group, all in one zone and
   * capacity type. Every call succeeds or the instances of those that did are terminated at once
   * and the gang is tried elsewhere: no gang runs across zones, or keeps part of itself billed
   * while it cannot run.
   */
  record Gang(List<Launch> calls) implements PowerAction {
    public Gang {
      calls = List.copyOf(calls);
      if (calls.size() < 2 || calls.stream().map(c -> c.offering().key()).distinct().count() != 1) {
        throw new IllegalArgumentException("a gang launch is two calls or more, all with one offering");
      }
    }
  }

  /**
   * Nodes whose machines run in a zone their gang is leaving (the replacement for an interrupted
   * node goes to another zone): terminate their instances; they wait for the gang's launch again,
   * still held by their jobs.
   */
  record Move(List<String> nodes, String reason) implements PowerAction {
    public Move {
      nodes = List.copyOf(nodes);
    }
  }

  /** Resume a powered-down node with no job, to keep the partition's minimum powered. */
  record Resume(String node) implements PowerAction {}

  /** Give an idle node back: terminate its instance, node to CLOUD; {@code reason} says why now. */
  record Suspend(String node, String reason) implements PowerAction {}

  /**
   * Nodes that could not be brought up in time, or ran out of launch attempts: terminate any
   * instance, mark them DOWN for a moment, requeue the jobs that held them.
   */
  record Release(List<String> nodes, String reason) implements PowerAction {
    public Release {
      nodes = List.copyOf(nodes);
    }
  }

  /** Nodes that wait for a launch (no offering now, or backing off): why, for the jobs' reason. */
  record Wait(List<String> nodes, String reason) implements PowerAction {
    public Wait {
      nodes = List.copyOf(nodes);
    }
  }
}
