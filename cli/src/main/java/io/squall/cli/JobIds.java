package io.squall.cli;

import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Job ids as users type them: {@code 42}, {@code 42_3}, and task ranges {@code 42_[1-3,7]}
 * (expanded here, since the service addresses one job or task per call).
 */
final class JobIds {
  private static final Pattern SINGLE = Pattern.compile("\\d+(_\\d+)?");
  private static final Pattern RANGE = Pattern.compile("\\d+_\\[[0-9,\\-]+(%\\d+)?]");

  private JobIds() {}

  /** @throws UsageException {@code Invalid job id X}, as Slurm says it */
  static List<String> expand(List<String> words) {
    List<String> ids = new ArrayList<>();
    for (String word : words) {
      for (String id : word.split(",(?![^\\[]*])")) {
        String w = id.strip();
        if (SINGLE.matcher(w).matches()) {
          ids.add(w);
        } else if (RANGE.matcher(w).matches()) {
          ids.addAll(tasks(w));
        } else {
          throw new UsageException("Invalid job id " + w);
        }
      }
    }
    return ids;
  }

  /** {@code 42_[4-9%2]} (squeue's pending remainder, throttle and all) as 42_4 ... 42_9. */
  static List<String> tasks(String range) {
    String bare = range.replaceAll("%\\d+", "");
    try {
      return Hostlist.expand(bare);
    } catch (HostlistException e) {
      throw new UsageException("Invalid job id " + range + ": " + e.getMessage());
    }
  }
}
