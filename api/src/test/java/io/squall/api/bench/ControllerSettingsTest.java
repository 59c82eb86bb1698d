package io.squall.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.env.yaml.YamlPropertySourceLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A controller in its own JVM reads the settings from the file written: the same ones, and only its owner can. */
class ControllerSettingsTest {
  @TempDir
  Path dir;

  @Test
  void theFileWrittenReadsBackAsTheSameSettingsAndOnlyItsOwnerMayReadIt() throws Exception {
    ControllerSettings s = ControllerSettings.of(20123, dir.resolve("data"), "local").postgres("jdbc:postgresql://h/db?user=it's")
        .highlyAvailable("http://127.0.0.1:20123").with("squall.local.launch-failure-rate", 0.3)
        .withYaml("""
            squall:
              partitions:
                burst:
                  nodes: burst-[1-4]
                  elastic: true
                  instance-types: [local, 'p5.48xlarge']
            """);
    Path file = s.write(dir.resolve("controller.yml"));

    Map<String, Object> read = new YamlPropertySourceLoader().read("controller.yml", Files.readAllBytes(file));
    assertThat(read).isEqualTo(s.map()).containsEntry("micronaut.server.port", 20123)
        .containsEntry("squall.data-dir", dir.resolve("data").toString())
        .containsEntry("datasources.default.url", "jdbc:postgresql://h/db?user=it's")
        .containsEntry("datasources.default.password", "")
        .containsEntry("squall.ha.enabled", true)
        .containsEntry("squall.partitions.burst.nodes", "burst-[1-4]")
        .containsEntry("squall.partitions.burst.instance-types", List.of("local", "p5.48xlarge"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
  }
}
