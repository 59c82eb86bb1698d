package io.squall.api.config;

import io.micronaut.context.annotation.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may reach what in the controller's data directory. The H2 database ({@code db/}: every
 * user's scripts and environments) and the gathered job output ({@code output/}) are the
 * controller's alone (0700). The directory itself is 0711: others may pass through it, not list
 * it, so that a local node's jobs, run as their users, reach their own job directories under
 * {@code nodes/} and checkpoint directories under {@code checkpoints/} (both made by the node's
 * agent, each the job's user's own).
 */
@Context
public final class DataDirectory {
  private static final Logger LOG = LoggerFactory.getLogger(DataDirectory.class);

  public DataDirectory(SquallConfig config) {
    Path dir = config.getDataDir().toAbsolutePath();
    restrict(dir, "rwx--x--x");
    restrict(dir.resolve("db"), "rwx------");
    restrict(dir.resolve("output"), "rwx------");
  }

  private static void restrict(Path dir, String mode) {
    try {
      Files.createDirectories(dir);
      if (!PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)).equals(mode)) {
        LOG.info("{}: mode set to {}", dir, mode);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(mode));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set the mode of " + dir + " to " + mode, e);
    }
  }
}
