package io.squall.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * What a killed agent's jobs left behind. Job processes live in sessions of their own, so when
 * their agent dies (kill -9, a crash) they run on, unseen: the controller then requeues their
 * jobs, and a second copy would run beside them. So an agent starting in a work directory first
 * kills every process marked with it ({@link JobEnvironment#AGENT_HOME}), and waits until they
 * are gone, before it registers and takes work, as slurmd does with the steps of a job the
 * controller no longer has. Job directories left behind are removed with them.
 */
public final class OrphanSweep {
  private static final long WAIT_SECONDS = 10;

  private OrphanSweep() {}

  /** Kills the processes left by earlier agents in {@code workDir}, removes their job directories; answers how many there were. */
  static int run(Path workDir, AgentLog log) throws IOException {
    List<ProcessHandle> orphans = kill(workDir);
    orphans.stream().filter(ProcessHandle::isAlive).forEach(p -> log.warn("process " + p.pid()
        + " of an earlier agent's job survived SIGKILL for " + WAIT_SECONDS + " s"));
    if (!orphans.isEmpty()) {
      log.warn("killed " + orphans.size() + " processes left running by an earlier agent's jobs");
    }
    Path jobs = workDir.resolve("jobs");
    if (Files.isDirectory(jobs)) {
      try (Stream<Path> dirs = Files.list(jobs)) {
        for (Path d : dirs.toList()) {
          JobFiles.removeTree(d);
        }
      }
    }
    return orphans.size();
  }

  /**
   * Kills (SIGKILL) every process marked as a job process of the agent in {@code workDir}, and
   * waits up to 10 s for them to go. The local provider uses it too, for a node whose agent died
   * for good: the machine is gone, so its processes are.
   *
   * @return the processes it killed
   */
  public static List<ProcessHandle> kill(Path workDir) throws IOException {
    List<ProcessHandle> orphans = find(workDir);
    orphans.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle p : orphans) {
      try {
        p.onExit().get(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException | ExecutionException e) {
        // reported by the caller, who finds it alive
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while killing orphaned job processes", e);
      }
    }
    return orphans;
  }

  /** The live processes marked as job processes of the agent in {@code workDir} (bench chaos counts them too). */
  public static List<ProcessHandle> find(Path workDir) {
    byte[] marker = (JobEnvironment.AGENT_HOME + "=" + workDir + "\0").getBytes(StandardCharsets.UTF_8);
    long self = ProcessHandle.current().pid();
    return ProcessHandle.allProcesses().filter(p -> p.pid() != self && marked(p.pid(), marker)).toList();
  }

  /** Whether the process's environment holds the marker (unreadable ones are not this agent's to judge). */
  private static boolean marked(long pid, byte[] marker) {
    try {
      byte[] env = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
      return indexOf(env, marker) >= 0;
    } catch (IOException | SecurityException gone) {
      return false;
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (i > 0 && haystack[i - 1] != 0) {
        continue; // variables start after a NUL
      }
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
