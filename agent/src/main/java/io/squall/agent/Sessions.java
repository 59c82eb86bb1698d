package io.squall.agent;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts job processes in a session of their own (setsid), so that a job's processes form a
 * group the agent can find and kill, and so that signals meant for the agent's own group (a
 * Ctrl-C on a terminal, a provider stopping the agent) do not reach jobs by accident.
 */
final class Sessions {
  private final String setsid;

  private Sessions(String setsid) {
    this.setsid = setsid;
  }

  /** Finds setsid on the agent's PATH, else in /usr/bin or /bin; without it jobs share the agent's group. */
  static Sessions detect() {
    String path = System.getenv("PATH");
    String search = (path == null || path.isEmpty() ? "" : path + File.pathSeparator) + "/usr/bin" + File.pathSeparator + "/bin";
    Optional<Path> setsid = CommandLookup.find("setsid", search, Path.of("/"));
    return new Sessions(setsid.map(Path::toString).orElse(null));
  }

  boolean available() {
    return setsid != null;
  }

  /**
   * Starts {@code builder}'s command, under setsid when there is one. setsid runs the command in
   * place (exec, same pid) because a JVM's child never leads a process group; {@code -w} only
   * guards the case where it would fork, so that the exit status still arrives.
   */
  Launched start(ProcessBuilder builder) throws IOException {
    if (setsid == null) {
      return new Launched(builder.start(), false);
    }
    List<String> command = new ArrayList<>(builder.command());
    List<String> wrapped = new ArrayList<>(List.of(setsid, "-w"));
    wrapped.addAll(command);
    builder.command(wrapped);
    try {
      return new Launched(builder.start(), true);
    } finally {
      builder.command(command);
    }
  }
}
