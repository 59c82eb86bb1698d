package io.squall.api.config;

import io.micronaut.context.env.PropertySource;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * application.yml ships an example partition ({@code gpu}: four local nodes) so that Squall runs
 * with no configuration. Micronaut merges every source, so without this rule that partition would
 * join every cluster's own: a deployment naming {@code h100} and {@code h200} would also get
 * {@code gpu}, which with a cloud provider stops the start (it is not elastic). The rule: once
 * any other source (a {@code --config} file, the environment, a test's settings) names a
 * partition, only the partitions some such source names are kept; a built-in partition named
 * there too keeps its built-in settings under the ones given, as any key does.
 */
public final class BuiltInPartitions {
  private static final String PREFIX = "squall.partitions.";

  private BuiltInPartitions() {}

  /** The partitions in force, of all those bound from {@code sources}. */
  public static List<PartitionConfig> inForce(List<PartitionConfig> bound, Iterable<PropertySource> sources) {
    Set<String> named = new HashSet<>();
    for (PropertySource source : sources) {
      if (!isBuiltIn(source)) {
        for (String key : source) {
          String name = partitionOf(key);
          if (name != null) {
            named.add(name);
          }
        }
      }
    }
    return named.isEmpty() ? bound : bound.stream().filter(p -> named.contains(p.getName())).toList();
  }

  /** application.yml and its environments' files (application-elastic.yml) inside the controller. */
  private static boolean isBuiltIn(PropertySource source) {
    String name = source.getName();
    return name.equals("application") || name.startsWith("application-");
  }

  /**
   * The partition a key names: {@code squall.partitions.NAME...}, or an environment variable's
   * {@code SQUALL_PARTITIONS_NAME_...} (whose NAME is read up to the next underscore).
   */
  private static String partitionOf(String key) {
    String k = key.indexOf('.') < 0 && key.indexOf('_') >= 0 ? key.toLowerCase(Locale.ROOT).replace('_', '.') : key;
    if (!k.startsWith(PREFIX) || k.length() == PREFIX.length()) {
      return null;
    }
    String rest = k.substring(PREFIX.length());
    int end = rest.indexOf('.');
    return end < 0 ? rest : rest.substring(0, end);
  }
}
