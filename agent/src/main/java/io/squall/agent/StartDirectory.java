package io.squall.agent;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The directory a job process starts in: the one asked for or, as slurmstepd does when that is
 * missing, /tmp, with slurmstepd's complaint (message included) for the job's stderr.
 *
 * @param complaint null when the directory asked for is there
 */
record StartDirectory(Path path, String complaint) {
  /** Somewhere harmless that every node has. */
  static final Path FALLBACK = Path.of("/tmp");

  static StartDirectory of(Path wanted) {
    if (Files.isDirectory(wanted)) {
      return new StartDirectory(wanted, null);
    }
    return new StartDirectory(FALLBACK, "slurmstepd: error: couldn't chdir to `" + wanted
        + "': No such file or directory: going to /tmp instead\n");
  }
}
