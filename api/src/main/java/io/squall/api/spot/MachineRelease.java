package io.squall.api.spot;

import io.squall.api.config.ClusterLayout;
import io.squall.api.fleet.ElasticFleet;
import io.squall.api.fleet.NodeFleet;
import io.squall.api.fleet.Providers;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.core.model.NodeState;
import jakarta.inject.Singleton;

/**
 * Gives up an interrupted node's machine at its deadline. The cloud takes it anyway; terminating
 * it ourselves (idempotent) stops the bill at once, and makes the local provider and injected
 * notices behave as a cloud would. An elastic node goes back to CLOUD through the elastic fleet,
 * which also leaves the interrupted offering alone for a while; a static node stays DOWN with the
 * reason until an operator brings it back. From the notice on, a reclaimed spot offering is left
 * alone for a while, so replacement capacity follows the partition's policy elsewhere.
 */
@Singleton
public final class MachineRelease {
  private final ClusterLayout layout;
  private final ElasticFleet elastic;
  private final NodeFleet statics;
  private final boolean launchesNodes;
  private final StateWriter writer;

  public MachineRelease(ClusterLayout layout, ElasticFleet elastic, NodeFleet statics, Providers providers,
      StateWriter writer) {
    this.layout = layout;
    this.elastic = elastic;
    this.statics = statics;
    this.launchesNodes = providers.provider() != null;
    this.writer = writer;
  }

  /** A notice arrived: an elastic node's spot offering is short from now on. */
  public void noticed(String node, String why) {
    if (layout.isElastic(node)) {
      elastic.spotReclaimed(node, why);
    }
  }

  /** The deadline came: the machine is given up. */
  public void release(String node, String why) {
    if (layout.isElastic(node)) {
      elastic.machineTaken(node, why);
      return;
    }
    if (launchesNodes) {
      statics.stopNode(node);
    }
    writer.write(b -> {
      NodeStatus n = b.node(node);
      b.update(n.withState(NodeState.DOWN, why), true);
      return null;
    }).join();
  }
}
