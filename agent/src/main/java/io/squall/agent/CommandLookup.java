package io.squall.agent;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds a task's program the way execvp(3) would in the task's own environment. A JVM would
 * search the agent's PATH instead; the task's PATH (a virtualenv, a module system) is the one
 * that counts.
 */
final class CommandLookup {
  private CommandLookup() {}

  /** A name with a slash is taken relative to {@code workDir}; any other is searched on {@code path}. */
  static Optional<Path> find(String program, String path, Path workDir) {
    if (program.isEmpty()) {
      return Optional.empty();
    }
    if (program.contains("/")) {
      Path candidate = workDir.resolve(program);
      return runnable(candidate) ? Optional.of(candidate) : Optional.empty();
    }
    String search = path == null ? JobEnvironment.DEFAULT_PATH : path;
    for (String dir : search.split(File.pathSeparator, -1)) {
      // An empty PATH entry means the current directory, as in POSIX.
      Path candidate = (dir.isEmpty() ? workDir : workDir.resolve(dir)).resolve(program);
      if (runnable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static boolean runnable(Path file) {
    return Files.isRegularFile(file) && Files.isExecutable(file);
  }
}
