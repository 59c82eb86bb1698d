package io.squall.api.store;

import io.squall.core.model.GpuGrant;
import io.squall.core.sbatch.ArraySpec;
import java.util.ArrayList;
import java.util.List;

/** The compact text forms some columns hold: task id lists and allocations. */
public final class StoreText {
  private StoreText() {}

  /** {@code 1-3,7}: sorted task ids as Slurm writes them. */
  public static String taskIds(List<Integer> ids) {
    return ids.isEmpty() ? "" : ArraySpec.formatIds(ids);
  }

  public static List<Integer> parseTaskIds(String text) {
    return text == null || text.isEmpty() ? List.of() : ArraySpec.parse(text).taskIds();
  }

  /** {@code node-1=0.1/32/1024;node-2=0.1/32/1024}: node, GPU indices, CPUs, memory in MB. */
  public static String allocation(List<GpuGrant> grants) {
    StringBuilder sb = new StringBuilder();
    for (GpuGrant g : grants) {
      if (sb.length() > 0) {
        sb.append(';');
      }
      sb.append(g.node()).append('=');
      for (int i = 0; i < g.gpuIndices().size(); i++) {
        sb.append(i == 0 ? "" : ".").append(g.gpuIndices().get(i));
      }
      sb.append('/').append(g.cpus()).append('/').append(g.memoryMb());
    }
    return sb.toString();
  }

  public static List<GpuGrant> parseAllocation(String text) {
    List<GpuGrant> grants = new ArrayList<>();
    if (text == null || text.isEmpty()) {
      return grants;
    }
    for (String part : text.split(";")) {
      int eq = part.lastIndexOf('=');
      String[] fields = part.substring(eq + 1).split("/");
      List<Integer> gpus = new ArrayList<>();
      if (!fields[0].isEmpty()) {
        for (String g : fields[0].split("\\.")) {
          gpus.add(Integer.parseInt(g));
        }
      }
      grants.add(new GpuGrant(part.substring(0, eq), gpus, Integer.parseInt(fields[1]), Long.parseLong(fields[2])));
    }
    return grants;
  }
}
