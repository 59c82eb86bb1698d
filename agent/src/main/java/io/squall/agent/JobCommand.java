package io.squall.agent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts a job process: a small shell that opens the job's input and
 * output files, changes to its working directory, then becomes the job's command, all as the
 * job's user when there is one ({@link JobUser#wrap}). Opening files and changing directory in
 * the job's own process, after the user change, means a job can neither truncate a file it may
 * not write nor start in a directory it may not enter; done by the agent (root) they would be.
 */
final class JobCommand {
  /** Where a job process starts when its directory is missing, as slurmstepd does: somewhere every node has. */
  static final Path FALLBACK_DIR = Path.of("/tmp");

  /** A stream left as the agent set it up (a pipe to the agent, for srun tasks). */
  static final String KEEP = "-";

  private static final String LAUNCH = String.join("\n",
      "in=$1 out=$2 err=$3 fresh=$4 dir=$5; shift 5",
      "if [ \"$fresh\" = 1 ]; then",
      "  : > \"$out\" || exit 1",
      "  if [ \"$err\" != \"$out\" ]; then : > \"$err\" || exit 1; fi",
      "fi",
      "exec < \"$in\" || exit 1",
      "if [ \"$out\" != " + KEEP + " ]; then exec >> \"$out\" || exit 1; fi",
      "if [ \"$err\" = \"$out\" ] && [ \"$out\" != " + KEEP + " ]; then exec 2>&1",
      "elif [ \"$err\" != " + KEEP + " ]; then exec 2>> \"$err\" || exit 1; fi",
      // slurmstepd's words when the working directory is missing (or not the user's to enter).
      "cd \"$dir\" 2>/dev/null || { echo \"slurmstepd: error: couldn't chdir to \\`$dir': No such file or directory:"
          + " going to /tmp instead\" >&2; cd /tmp; }",
      "unset OLDPWD",
      "exec \"$@\"");

  private JobCommand() {}

  /**
   * @param user the job's user, or null to run as the agent's
   * @param stdout a file, or {@link #KEEP}; {@code stderr} the same file to share it
   * @param truncate whether the output files start empty (Slurm's --open-mode=truncate)
   */
  static List<String> of(JobUser user, Path stdin, String stdout, String stderr, boolean truncate, Path dir,
      List<String> command) {
    List<String> out = new ArrayList<>(List.of("/bin/sh", "-c", LAUNCH, "squall-job", stdin.toString(), stdout,
        stderr, truncate && !stdout.equals(KEEP) ? "1" : "0", dir.toString()));
    out.addAll(command);
    return user == null ? out : user.wrap(out);
  }
}
