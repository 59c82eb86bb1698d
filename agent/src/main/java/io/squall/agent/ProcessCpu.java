package io.squall.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's CPU time from {@code /proc/PID/stat}, as the benchmarks report it: user and system,
 * with the children it has waited for (what {@code rest-bench.py} reads for the server it measures).
 */
public final class ProcessCpu {
  /** Linux reports /proc times in USER_HZ, which its ABI fixes at 100 per second for user space. */
  private static final double TICKS_PER_S = 100;

  private ProcessCpu() {}

  /** @throws IOException when there is no such process (or no /proc) */
  public static double seconds(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    // The command name in parentheses may hold spaces: fields are counted after its closing one.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    long ticks = 0;
    for (int i = 11; i <= 14; i++) { // utime, stime, cutime, cstime
      ticks += Long.parseLong(f[i]);
    }
    return ticks / TICKS_PER_S;
  }
}
