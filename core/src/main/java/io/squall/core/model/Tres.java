package io.squall.core.model;

import java.util.Locale;

/**
 * A limit on trackable resources (Slurm's TRES) as far as Squall models them: GPUs
 * ({@code gres/gpu}), CPUs ({@code cpu}), memory ({@code mem}) and nodes ({@code node}). Each is
 * null when the limit does not set it.
 */
public record Tres(Integer gpus, Integer cpus, Long memoryMb, Integer nodes) {
  public static final Tres NONE = new Tres(null, null, null, null);

  public static Tres ofGpus(Integer gpus) {
    return new Tres(gpus, null, null, null);
  }

  public boolean isNone() {
    return gpus == null && cpus == null && memoryMb == null && nodes == null;
  }

  /**
   * Parses Slurm's TRES list as sacctmgr takes it ({@code GrpTRES=cpu=64,mem=512G,node=4,gres/gpu=16}):
   * comma-separated {@code name=count} with names {@code gres/gpu}, {@code cpu}, {@code mem}
   * (megabytes, or with a K, M, G or T suffix) and {@code node}; a count of -1 clears that limit, as
   * in sacctmgr. Empty or null text is no limit.
   *
   * @throws IllegalArgumentException saying which item is wrong and why
   */
  public static Tres parse(String text) {
    Tres out = NONE;
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String item : text.split(",")) {
      String trimmed = item.trim();
      int eq = trimmed.indexOf('=');
      if (eq <= 0 || eq == trimmed.length() - 1) {
        throw new IllegalArgumentException("'" + trimmed + "' is not NAME=COUNT (as gres/gpu=16)");
      }
      String name = trimmed.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = trimmed.substring(eq + 1).trim();
      out = switch (name) {
        case "gres/gpu" -> new Tres(count(name, value), out.cpus, out.memoryMb, out.nodes);
        case "cpu" -> new Tres(out.gpus, count(name, value), out.memoryMb, out.nodes);
        case "mem" -> new Tres(out.gpus, out.cpus, megabytes(value), out.nodes);
        case "node" -> new Tres(out.gpus, out.cpus, out.memoryMb, count(name, value));
        default -> throw new IllegalArgumentException("'" + name + "' is not a TRES Squall limits: use gres/gpu, "
            + "cpu, mem or node" + (name.startsWith("gres/gpu:") ? " (limits by GPU type are not modelled)" : ""));
      };
    }
    return out;
  }

  private static Integer count(String name, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n == -1) {
        return null;
      }
      if (n < 0) {
        throw new IllegalArgumentException(name + "=" + value + ": a count is 0 or more (-1 clears it)");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + value + ": '" + value + "' is not a whole number", e);
    }
  }

  private static Long megabytes(String value) {
    String digits = value;
    long unit = 1;
    char last = Character.toUpperCase(value.charAt(value.length() - 1));
    if (Character.isLetter(last)) {
      unit = switch (last) {
        case 'K' -> -1024; // kilobytes: divided, below
        case 'M' -> 1;
        case 'G' -> 1024;
        case 'T' -> 1024L * 1024;
        default -> throw new IllegalArgumentException("mem=" + value + ": the unit is K, M, G or T");
      };
      digits = value.substring(0, value.length() - 1);
    }
    Integer n = count("mem", digits);
    if (n == null) {
      return null;
    }
    return unit < 0 ? (n + 1023) / 1024 : n * unit;
  }

  /** Slurm's way of writing it, as sacctmgr shows it; empty for no limit. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    if (cpus != null) {
      b.append("cpu=").append(cpus);
    }
    if (memoryMb != null) {
      b.append(b.isEmpty() ? "" : ",").append("mem=").append(memoryMb).append('M');
    }
    if (nodes != null) {
      b.append(b.isEmpty() ? "" : ",").append("node=").append(nodes);
    }
    if (gpus != null) {
      b.append(b.isEmpty() ? "" : ",").append("gres/gpu=").append(gpus);
    }
    return b.toString();
  }
}
