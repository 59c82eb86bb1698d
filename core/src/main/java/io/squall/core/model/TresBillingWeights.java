package io.squall.core.model;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A partition's TRESBillingWeights (slurm.conf(5), tres.html "Billing Weights"): what one second
 * of a job's allocation adds to its fair-share usage. The billed amount is the sum over the
 * allocated TRES of count × weight, as Slurm bills without PriorityFlags=MAX_TRES; Slurm keeps it
 * as a double for usage (calc_job_billable_tres), so no truncation here either.
 *
 * @param cpu per allocated CPU
 * @param memPerMb per MB of allocated memory (Slurm's base unit for memory)
 * @param gpu per allocated GPU ({@code GRES/gpu})
 * @param node per allocated node
 * @param text the setting as it was given
 */
public record TresBillingWeights(double cpu, double memPerMb, double gpu, double node, String text) {
  /**
   * TRES Slurm tracks by default that Squall never allocates: a weight on them is accepted, as
   * slurmctld accepts it, and bills nothing. ({@code billing} itself is ignored by Slurm too.)
   */
  private static final Set<String> UNMEASURED = Set.of("billing", "energy", "fs/disk", "vmem", "pages");
  /** Slurm's unit suffixes, each 1024 times the one before (get_convert_unit_val). */
  private static final String UNITS = "KMGTP";
  /** A decimal number as strtod reads it (no hex, NaN or Java's d/f suffixes). */
  private static final Pattern NUMBER = Pattern.compile("[+]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

  /**
   * Squall's default: one unit per GPU-second. Slurm bills only CPUs when a partition sets no
   * weights ({@code CPU=1}), which on a GPU cluster would make GPUs free; see the README.
   */
  public static final TresBillingWeights GPUS = parse("GRES/gpu=1");

  /**
   * Reads {@code CPU=1.0,Mem=0.25G,GRES/gpu=2.0}: TRES names are case-insensitive; a weight may end
   * in a unit suffix (K, M, G, T, P) that, above the TRES's base unit (MB for memory, a count for
   * the others), divides it by 1024 per step: {@code Mem=0.25G} bills 0.25 per GB.
   *
   * @throws IllegalArgumentException saying which entry is wrong and why
   */
  public static TresBillingWeights parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("give TRES=weight pairs, e.g. CPU=1.0,Mem=0.25G,GRES/gpu=2.0");
    }
    double cpu = 0;
    double mem = 0;
    double gpu = 0;
    double node = 0;
    for (String entry : List.of(text.split(",", -1))) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("'" + entry + "' is not TRES=weight");
      }
      String tres = entry.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = entry.substring(eq + 1).trim();
      switch (tres) {
        case "cpu" -> cpu = weight(entry, value, -1);
        case "mem" -> mem = weight(entry, value, UNITS.indexOf('M'));
        case "gres/gpu" -> gpu = weight(entry, value, -1);
        case "node" -> node = weight(entry, value, -1);
        default -> {
          if (!UNMEASURED.contains(tres)) {
            throw new IllegalArgumentException("'" + entry + "': " + tres + " is not a TRES Squall tracks (CPU, Mem,"
                + " Node, GRES/gpu" + (tres.startsWith("gres/gpu:") ? "; weigh all GPUs with GRES/gpu" : "") + ")");
          }
          weight(entry, value, -1); // still a number, as Slurm requires
        }
      }
    }
    return new TresBillingWeights(cpu, mem, gpu, node, text.trim());
  }

  /** @param base the TRES's base unit as an index into {@link #UNITS}, -1 for a plain count */
  private static double weight(String entry, String value, int base) {
    String number = value;
    int unit = -1;
    if (!value.isEmpty()) {
      unit = UNITS.indexOf(Character.toUpperCase(value.charAt(value.length() - 1)));
      if (unit >= 0) {
        number = value.substring(0, value.length() - 1);
      }
    }
    if (!NUMBER.matcher(number).matches()) {
      throw new IllegalArgumentException("'" + entry + "': the weight must be a number, 0 or more, with an optional"
          + " K, M, G, T or P suffix");
    }
    double w = Double.parseDouble(number);
    if (!Double.isFinite(w)) {
      throw new IllegalArgumentException("'" + entry + "': the weight is too large");
    }
    for (int step = base + 1; step <= unit; step++) {
      w /= 1024;
    }
    return w;
  }

  /** The billed amount per second of an allocation of these totals. */
  public double billing(int cpus, long memoryMb, int gpus, int nodes) {
    return cpu * cpus + memPerMb * memoryMb + gpu * gpus + node * nodes;
  }

  /** The billed amount per second of a job holding {@code allocation}. */
  public double billing(List<GpuGrant> allocation) {
    int cpus = 0;
    long memory = 0;
    int gpus = 0;
    for (GpuGrant g : allocation) {
      cpus += g.cpus();
      memory += g.memoryMb();
      gpus += g.gpuIndices().size();
    }
    return billing(cpus, memory, gpus, allocation.size());
  }

  @Override
  public String toString() {
    return text;
  }
}
