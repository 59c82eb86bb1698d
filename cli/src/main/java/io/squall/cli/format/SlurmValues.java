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
    List<String> parts = new ArrayList<>();
    if (cpus != null && cpus > 0) {
      parts.add("cpu=" + cpus);
    }
    if (gpus != null && gpus > 0) {
      parts.add("gres/gpu=" + gpus);
    }
    if (nodes != null && nodes > 0) {
      parts.add("node=" + nodes);
    }
    return String.join(",", parts);
  }

  /** {@code CODE:SIGNAL}, as sacct's ExitCode and scontrol's ExitCode; unknown parts print 0. */
  public static String exitCode(Integer code, Integer signal) {
    return (code == null ? 0 : code) + ":" + (signal == null ? 0 : signal);
  }
}
