package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.env.yaml.YamlPropertySourceLoader;
import io.squall.api.config.ClusterLayout;
import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import io.squall.providers.aws.FakeEc2;
import io.squall.providers.gcp.FakeGce;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/aws.yml} and {@code examples/gcp.yml} are the controller's configuration as well
 * as infra's input: the controller starts with each (plus what the infra controller's boot adds:
 * its {@code infra.yml} and the environment of {@code server.env}), lays the partitions out as
 * infra made them, and the hashes the examples give the built-in users replace their shipped
 * tokens. Fakes stand in for EC2 and Compute Engine; no machine is launched.
 *
 * <p>application.yml's example partition {@code gpu} (node-[1-4], not elastic) does not join
 * them: with provider aws or gcp the controller would refuse it ({@code BuiltInPartitions}).
 */
class ExampleConfigurationsTest {
  private static final Path EXAMPLES = Path.of("..", "examples");

  @TempDir Path dir;

  @Test
  void theAwsExampleStartsTheController() throws Exception {
    assertAwsExampleStarts();
  }

  @Test
  void theGcpExampleStartsTheController() throws Exception {
    assertGcpExampleStarts();
  }

  private void assertAwsExampleStarts() throws Exception {
    try (FakeEc2 ec2 = new FakeEc2().offer("p5.48xlarge", "us-east-1a", "us-east-1b").offer("p5en.48xlarge", "us-east-1a")) {
      System.setProperty("aws.accessKeyId", "AKIDFAKE");
      System.setProperty("aws.secretAccessKey", "fake-secret");
      Map<String, Object> s = example("aws.yml");
      // controller/infra.yml, as infra writes it
      s.put("squall.aws.subnets", Map.of("us-east-1a", "subnet-0aaaaaaaaaaaaaaa1", "us-east-1b", "subnet-0aaaaaaaaaaaaaaa2"));
      s.put("squall.aws.security-group-ids", List.of("sg-0aaaaaaaaaaaaaaa1"));
      s.put("squall.aws.endpoint", ec2.endpoint().toString());
      s.put("squall.aws.sqs-endpoint", ec2.endpoint().toString()); // no queue answers here: polling only fails
      Map<String, Integer> partitions = new LinkedHashMap<>(Map.of("h100", 32, "h200", 8));
      try (Controllers.Running c = Controllers.start(s)) {
        assertLaidOutAsInfra(c, partitions, "h100-1", "h100-pg1", "h100-32", "h100-pg4", "h200-8", "h200");
        assertBuiltInTokensReplaced(c);
      }
    } finally {
      System.clearProperty("aws.accessKeyId");
      System.clearProperty("aws.secretAccessKey");
    }
  }

  private void assertGcpExampleStarts() throws Exception {
    try (FakeGce gce = new FakeGce("my-project", "us-central1").offer("us-central1-a", "a3-highgpu-8g")
        .offer("us-central1-c", "a3-highgpu-8g")) {
      Map<String, Object> s = example("gcp.yml");
      s.put("squall.gcp.endpoint", gce.endpoint());
      Map<String, Integer> partitions = new LinkedHashMap<>(Map.of("h100", 16));
      try (Controllers.Running c = Controllers.start(s)) {
        assertLaidOutAsInfra(c, partitions, "h100-1", "h100-pg1", "h100-16", "h100-pg2");
        assertBuiltInTokensReplaced(c);
      }
    }
  }

  /**
   * The example's settings as the controller reads the file, over the test's own (a data
   * directory, a free loopback port), with what the infra controller's boot script puts in
   * server.env: the agent token and the address nodes reach the controller at.
   */
  private Map<String, Object> example(String name) throws IOException {
    Map<String, Object> s = new LinkedHashMap<>(Controllers.settings(dir.resolve("data-" + name), null, "none"));
    try (InputStream in = Files.newInputStream(EXAMPLES.resolve(name))) {
      s.putAll(new YamlPropertySourceLoader().read(name, in));
    }
    s.put("squall.data-dir", dir.resolve("data-" + name).toString());
    s.put("micronaut.server.port", -1);
    s.put("squall.agent-token", "an-agent-token-of-the-deploys-own");
    s.put("squall.controller-url", "http://10.42.0.10:6820");
    return s;
  }

  private static void assertLaidOutAsInfra(Controllers.Running c, Map<String, Integer> nodesPerPartition,
      String... nodeAndGroup) {
    ClusterLayout layout = c.bean(ClusterLayout.class);
    Map<String, Integer> partitions = new LinkedHashMap<>();
    for (Partition p : layout.partitions()) {
      partitions.put(p.name(), p.nodes().size());
    }
    assertThat(partitions).isEqualTo(nodesPerPartition);
    for (int i = 0; i < nodeAndGroup.length; i += 2) {
      Node node = layout.node(nodeAndGroup[i]);
      assertThat(node.placementGroup()).as(nodeAndGroup[i]).isEqualTo(nodeAndGroup[i + 1]);
    }
  }

  private static void assertBuiltInTokensReplaced(Controllers.Running c) {
    Http h = new Http(c.url());
    for (String shipped : List.of("admin-token", "alice-token", "bob-token")) {
      assertThat(h.get(shipped, "/v1/jobs").status()).as(shipped).isEqualTo(401);
    }
  }
}
