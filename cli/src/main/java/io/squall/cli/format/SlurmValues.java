package io.squall.cli.format;

import java.util.ArrayList;
import java.util.List;

/** Values that sacct and scontrol print alike: TRES strings and exit codes. */
public final class SlurmValues {
  private SlurmValues() {}

  /**
   * Slurm's TRES string, keys in Slurm's order: {@code cpu=96,gres/gpu=16,node=2}. A null or zero
   * count is left out.
   */
  public static String tres(Integer cpus, Integer gpus, Integer nodes) {
    return tres(cpus, gpus, null, nodes);
  }

  /** With memory, in sacct's units: {@code cpu=96,gres/gpu=16,mem=512G,node=2}. */
  public static String tres(Integer cpus, Integer gpus, Long memoryMb, Integer nodes) {
    List<String> parts = new ArrayList<>();
    if (cpus != null && cpus > 0) {
      parts.add("cpu=" + cpus);
    }
    if (gpus != null && gpus > 0) {
      parts.add("gres/gpu=" + gpus);
    }
    if (memoryMb != null && memoryMb > 0) {
      parts.add("mem=" + megabytes(memoryMb));
    }
    if (nodes != null && nodes > 0) {
      parts.add("node=" + nodes);
    }
    return String.join(",", parts);
  }

  /**
   * Megabytes in the largest unit that holds them exactly, as Slurm converts TRES counts
   * (convert_num_unit with CONVERT_NUM_UNIT_EXACT): 65536 is {@code 64G}, 4000 stays {@code 4000M}.
   */
  static String megabytes(long mb) {
    String units = "MGTPE";
    long value = mb;
    int unit = 0;
    while (value >= 1024 && value % 1024 == 0 && unit < units.length() - 1) {
      value /= 1024;
      unit++;
    }
    return value + String.valueOf(units.charAt(unit));
  }

  /** {@code CODE:SIGNAL}, as sacct's ExitCode and scontrol's ExitCode; unknown parts print 0. */
  public static String exitCode(Integer code, Integer signal) {
    return (code == null ? 0 : code) + ":" + (signal == null ? 0 : signal);
  }
}
