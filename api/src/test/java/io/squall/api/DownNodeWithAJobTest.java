package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.core.model.NodeState;
import io.squall.core.provision.FleetActuator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job left on an elastic node marked DOWN is requeued once the fleet gives the node's machine
 * up. It happens when a node is marked DOWN because another job's launch failed there, while
 * this job's own launch got no answer (the agent was killed while it took it): the job was left
 * for the node's reports to settle, but a DOWN node's machine is terminated and nothing reports
 * any more. Before, the job stayed RUNNING on a powered-down node for good (the chaos bench's
 * "unfinished" jobs).
 */
class DownNodeWithAJobTest {
  private static final Duration LONG = Duration.ofSeconds(120);

  @TempDir Path dir;

  @Test
  void aJobOnAnElasticNodeThatIsPoweredDownAfterDownIsRequeued() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.partitions.gpu.nodes", "cloud-[1-2]");
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.partitions.gpu.batch-window", "200ms");
    s.put("squall.ticks", "manual");
    // The agent stays quiet: a heartbeat to a DOWN node would have it register and revive the
    // node, which the killed agent of the real case never did.
    s.put("squall.heartbeat-interval", "1h");
    s.put("squall.node-timeout", "2h");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long id = h.submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 --output=/dev/null\n"
          + "if [ \"$SLURM_RESTART_COUNT\" = 0 ]; then sleep 600; fi\n");
      JsonNode running = time.until("the job running", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("state").asText().equals("RUNNING") ? j : null;
      });
      String node = running.get("nodes").asText();

      // What a failed launch of another job leaves: the node DOWN, this job still on it.
      StateWriter writer = c.bean(StateWriter.class);
      writer.write(b -> {
        NodeStatus n = b.node(node);
        b.update(n.withState(NodeState.DOWN, "launch failed: agent unreachable"), true);
        return null;
      }).join();
      time.tick(); // the fleet sees it DOWN
      time.tickAfter(FleetActuator.DOWN_FOR); // DOWN long enough: the machine is given up

      JsonNode requeued = h.job(id);
      assertThat(requeued.get("restart_count").asInt()).as(requeued.toString()).isEqualTo(1);
      assertThat(requeued.get("events").toString()).contains("node " + node + " back to CLOUD after DOWN: its machine is gone");
      time.until("the job to complete on a new machine", LONG, () -> h.jobState(id).equals("COMPLETED") ? true : null);
    }
  }
}
