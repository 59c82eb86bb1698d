package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.env.PropertySource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuiltInPartitionsTest {
  private static final PropertySource APPLICATION = PropertySource.of("application",
      Map.of("squall.partitions.gpu.nodes", "node-[1-4]", "squall.partitions.gpu.default", true));
  private static final PropertySource ELASTIC = PropertySource.of("application-elastic",
      Map.of("squall.partitions.gpu.elastic", true));
  private static final List<PartitionConfig> BOUND = List.of(new PartitionConfig("gpu"), new PartitionConfig("h100"));

  private static List<String> inForce(PropertySource... sources) {
    return BuiltInPartitions.inForce(BOUND, List.of(sources)).stream().map(PartitionConfig::getName).toList();
  }

  @Test
  void theBuiltInPartitionGoesOnceAnotherSourceNamesPartitionsOfItsOwn() {
    assertThat(inForce(APPLICATION, ELASTIC, PropertySource.of("/etc/squall/squall.yml",
        Map.of("squall.partitions.h100.nodes", "h100-[1-32]")))).containsExactly("h100");
  }

  @Test
  void itStaysWithoutOtherPartitionsOrWhenNamedElsewhereToo() {
    assertThat(inForce(APPLICATION, ELASTIC, PropertySource.of("settings", Map.of("squall.provider", "aws"))))
        .containsExactly("gpu", "h100");
    assertThat(inForce(APPLICATION, PropertySource.of("settings", Map.of("squall.partitions.gpu.nodes", "n-[1-8]",
        "squall.partitions.h100.nodes", "h-[1-2]")))).containsExactly("gpu", "h100");
  }

  @Test
  void environmentVariablesNamePartitionsToo() {
    assertThat(inForce(APPLICATION, PropertySource.of("env", Map.of("SQUALL_PARTITIONS_H100_NODES", "h100-[1-4]",
        "PATH", "/usr/bin")))).containsExactly("h100");
  }
}
