package io.squall.agent;

import io.squall.agent.Protocol.RunAs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The OS user a job's processes run as, and how they get there: {@code setpriv} (util-linux)
 * drops from the agent's root to the user's uid, gid and groups just before the job's command
 * runs, as slurmstepd does. Every file the job opens (its script, output, input, working
 * directory) is then opened by the kernel on the user's behalf, so permissions are the kernel's.
 *
 * @param name the user's name, or null for a bare uid (then the process has no supplementary groups)
 */
record JobUser(String name, int uid, int gid) {
  /** Where {@code setpriv} lives on every Linux this runs on. */
  static final String SETPRIV = "/usr/bin/setpriv";

  /**
   * The user of {@code runAs} on this node.
   *
   * @throws IllegalArgumentException when the name is not a user here, or a uid or gid is missing or negative
   */
  static JobUser resolve(RunAs runAs) {
    if (runAs.user() != null) {
      return new JobUser(runAs.user(), id(runAs.user(), "-u"), id(runAs.user(), "-g"));
    }
    if (runAs.uid() == null || runAs.gid() == null || runAs.uid() < 0 || runAs.gid() < 0) {
      throw new IllegalArgumentException("run_as needs a user name, or a uid and a gid, not " + runAs);
    }
    return new JobUser(null, runAs.uid(), runAs.gid());
  }

  /** The command that runs {@code command} as this user. */
  List<String> wrap(List<String> command) {
    List<String> out = new ArrayList<>(List.of(SETPRIV, "--reuid=" + uid, "--regid=" + gid,
        name == null ? "--clear-groups" : "--init-groups", "--"));
    out.addAll(command);
    return out;
  }

  /** {@code id -u NAME} or {@code id -g NAME}: the name service's answer, LDAP included. */
  private static int id(String name, String which) {
    if (name.isEmpty() || name.startsWith("-") || name.chars().anyMatch(c -> c <= ' ' || c == ':' || c == '/')) {
      throw new IllegalArgumentException("'" + name + "' is not a user name");
    }
    try {
      Process p = new ProcessBuilder("id", which, name).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalArgumentException("no user '" + name + "' on this node (" + out + ")");
      }
      return Integer.parseInt(out);
    } catch (IOException | NumberFormatException e) {
      throw new IllegalArgumentException("cannot look up user '" + name + "': " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalArgumentException("interrupted looking up user '" + name + "'", e);
    }
  }
}
