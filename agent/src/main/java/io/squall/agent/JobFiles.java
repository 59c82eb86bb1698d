package io.squall.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/** Files the agent makes for a job, and whose they are. */
final class JobFiles {
  private JobFiles() {}

  /** Removes {@code dir} and everything in it; nothing when it is not there. */
  static void removeTree(Path dir) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Makes the paths the job's user's (no-op for a job that runs as the agent's own user). */
  static void giveTo(JobUser user, Path... paths) throws IOException {
    if (user == null) {
      return;
    }
    for (Path p : paths) {
      Files.setAttribute(p, "unix:uid", user.uid(), LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(p, "unix:gid", user.gid(), LinkOption.NOFOLLOW_LINKS);
    }
  }

  /**
   * The job's checkpoint directory ({@code SQUALL_CHECKPOINT_DIR}, when it is a path here and not
   * a URL): made if missing, the job's user's and private to them. One that exists and belongs to
   * someone else is refused: another user could have made it to read the job's checkpoints.
   */
  static void checkpointDirectory(String dir, JobUser user) throws IOException {
    if (dir == null || !dir.startsWith("/")) {
      return;
    }
    Path path = Path.of(dir);
    if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(path);
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
      giveTo(user, path);
      return;
    }
    if (user != null && (int) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS) != user.uid()) {
      throw new IOException("the checkpoint directory " + path + " belongs to another user");
    }
  }
}
