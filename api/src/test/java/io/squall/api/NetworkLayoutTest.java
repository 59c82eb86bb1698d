package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service learns where its instances sit in EC2's network (DescribeInstanceTopology, asked
 * every reconcile interval until EC2 knows) and shows it in {@code /v1/instances}.
 */
class NetworkLayoutTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  @TempDir
  Path dir;
  private AwsCloud cloud;

  @BeforeEach
  void cloud() throws Exception {
    cloud = new AwsCloud();
  }

  @AfterEach
  void tearDown() {
    cloud.close();
  }

  @Test
  void aGangsInstancesShowTheNetworkNodesAboveThem() {
    Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
    s.put("squall.reconcile-interval", "1s");
    s.put("squall.partitions.gpu.placement-groups", 1); // the gang's two nodes in one placement group
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      h.submit("#!/bin/bash\n#SBATCH -N 2 --gres=gpu:8 --output=/dev/null\nsleep 1\n");

      JsonNode instances = Poll.until("both instances' network layout", LONG, () -> {
        JsonNode all = h.get("admin-token", "/v1/instances").json().get("instances");
        boolean known = all.size() == 2 && all.get(0).get("network_nodes").size() > 0
            && all.get(1).get("network_nodes").size() > 0;
        return known ? all : null;
      });
      List<String> first = path(instances.get(0));
      // FakeEc2's layout: a spine per zone, a node per placement group, a leaf per four instances
      // of a launch: the gang's two share all three.
      assertThat(first).hasSize(3);
      assertThat(first.get(0)).isEqualTo("nn-" + AwsCloud.ZONE + "-spine");
      assertThat(path(instances.get(1))).isEqualTo(first);
      assertThat(cloud.ec2.lastRequest("DescribeInstanceTopology").list("InstanceId"))
          .containsExactlyInAnyOrder(instances.get(0).get("instance_id").asText(),
              instances.get(1).get("instance_id").asText());
    }
  }

  private static List<String> path(JsonNode instance) {
    List<String> out = new ArrayList<>();
    instance.get("network_nodes").forEach(n -> out.add(n.asText()));
    return out;
  }
}
