package io.squall.api.config;

import io.micronaut.context.annotation.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's data directory (the H2 database with every user's scripts and environments,
 * the gathered job output, the local nodes' directories and token files) is the controller's
 * alone: mode 0700, so that whatever modes the files inside get, no other user can reach them.
 */
@Context
public final class DataDirectory {
  private static final Logger LOG = LoggerFactory.getLogger(DataDirectory.class);
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

  public DataDirectory(SquallConfig config) {
    Path dir = config.getDataDir().toAbsolutePath();
    try {
      Files.createDirectories(dir);
      if (!Files.getPosixFilePermissions(dir).equals(OWNER_ONLY)) {
        LOG.info("{}: mode set to 0700 (it holds every user's scripts and output)", dir);
        Files.setPosixFilePermissions(dir, OWNER_ONLY);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the data directory " + dir + " private to the controller", e);
    }
  }
}
