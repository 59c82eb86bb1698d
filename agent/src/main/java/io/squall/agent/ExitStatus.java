package io.squall.agent;

/**
 * How a batch script or task ended, as the protocol reports it: {@code exitCode} as a shell shows
 * it (128+n after signal n) and {@code signal} the signal number, or null for an ordinary exit.
 */
record ExitStatus(int exitCode, Integer signal) {
  /** A batch script that could not start (its output directory is missing): Slurm reports exit 1. */
  static final ExitStatus LAUNCH_FAILED = new ExitStatus(1, null);

  /** What Slurm reports for a task whose command cannot be executed. */
  static final ExitStatus EXEC_FAILED = new ExitStatus(2, null);

  /**
   * Java reports a process killed by signal n as 128+n, the way a shell does, and a script that
   * exits with 128+n because its foreground child was killed looks the same. Both read as "killed
   * by signal n", which is what the user of the job wants to know (it was cancelled, timed out or
   * preempted), so both are reported that way.
   */
  static ExitStatus fromWaitStatus(int status) {
    if (status > 128 && status <= 128 + PosixSignal.MAX) {
      return new ExitStatus(status, status - 128);
    }
    return new ExitStatus(status, null);
  }
}
