package io.squall.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The example configurations use only keys the README documents for the controller (or under
 * {@code squall.infra.*} for infra): a typo there would be ignored by the controller's binding.
 */
class ExampleKeysTest {
  /** Maps whose keys are names (partitions, zones), not settings. */
  private static final Set<String> NAMED = Set.of("squall.partitions", "squall.aws.subnets");

  @Test
  void everyKeyOfTheExamplesIsInTheReadme() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    for (String example : List.of("aws.yml", "gcp.yml")) {
      Map<?, ?> yaml = new Yaml(new SafeConstructor(new LoaderOptions()))
          .load(Files.readString(Synthesized.EXAMPLES.resolve(example)));
      List<String> keys = new ArrayList<>();
      leaves("", yaml, keys);
      assertThat(keys).as(example).isNotEmpty().allSatisfy(key -> {
        String name = key.substring(key.lastIndexOf('.') + 1);
        assertThat(readme).as(example + ": " + key).containsAnyOf("`" + name + "`", " " + name + ":", "`" + key + "`",
            "." + name + "`", "`" + name + " ");
      });
    }
  }

  private static void leaves(String prefix, Map<?, ?> map, List<String> out) {
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String key = prefix.isEmpty() ? String.valueOf(e.getKey()) : prefix + "." + e.getKey();
      if (NAMED.contains(prefix)) {
        key = prefix + ".NAME";
      }
      if (e.getValue() instanceof Map<?, ?> child) {
        leaves(key, child, out);
      } else {
        out.add(key);
      }
    }
  }
}
