package io.squall.api.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.Poll;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The archives {@code package} made (their paths come from failsafe's system properties), unpacked
 * with tar, and commands run from them as a user without Maven or the source tree would: java's
 * directory and {@code /usr/bin:/bin} on the PATH, a fresh HOME (so no {@code ~/.m2}), nothing
 * else of this JVM's environment.
 */
final class Unpacked {
  static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);

  private Unpacked() {}

  /** The archive {@code squall-NAME-VERSION.tar.gz}; NAME is server, agent or cli. */
  static Path archive(String name) {
    String path = System.getProperty("squall.dist." + name);
    assertThat(path).as("squall.dist." + name + " (set by failsafe in api/pom.xml)").isNotNull();
    Path archive = Path.of(path);
    assertThat(archive).as("run mvn package first").isRegularFile();
    return archive;
  }

  /** Unpacks the NAME archive into {@code into}; answers its top directory, {@code squall-NAME-VERSION}. */
  static Path unpack(String name, Path into) throws IOException, InterruptedException {
    Files.createDirectories(into);
    Result tar = run(List.of("tar", "-xzf", archive(name).toString(), "-C", into.toString()), into, environment(into));
    assertThat(tar.exit()).as(tar.output()).isZero();
    String top = archive(name).getFileName().toString().replace(".tar.gz", "");
    Path dir = into.resolve(top);
    assertThat(dir).isDirectory();
    return dir;
  }

  /** This JVM's java launcher's directory: the only Java the commands see. */
  static Path javaBin() {
    return Path.of(System.getProperty("java.home"), "bin");
  }

  /** PATH of java's directory and /usr/bin:/bin, HOME {@code home}, a UTF-8 locale, no CLI archive; nothing else. */
  static Map<String, String> environment(Path home) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", javaBin() + ":/usr/bin:/bin");
    env.put("HOME", home.toString());
    env.put("LANG", "C.UTF-8");
    // No class-data sharing archive recorded in the background into a directory the test is about
    // to delete (CdsArchiveIT removes this and waits for the recorder).
    env.put("SQUALL_CDS_ARCHIVE", "none");
    return env;
  }

  /** What a finished command said: its exit status, and stdout and stderr together. */
  record Result(int exit, String output) {}

  /** Runs {@code command} in {@code dir} with exactly {@code env}; fails the test after {@link #COMMAND_TIMEOUT}. */
  static Result run(List<String> command, Path dir, Map<String, String> env) throws IOException, InterruptedException {
    Path log = Files.createTempFile("squall-dist", ".out");
    try {
      Process p = start(command, dir, env, log);
      if (!p.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        stop(p);
        throw new AssertionError(command + " did not finish within " + COMMAND_TIMEOUT + ": "
            + Files.readString(log, StandardCharsets.UTF_8));
      }
      return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /** Starts {@code command} with exactly {@code env}, its stdout and stderr into {@code log}. */
  static Process start(List<String> command, Path dir, Map<String, String> env, Path log) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    return pb.start();
  }

  /** SIGTERM, then SIGKILL after 30 s; and whatever it left behind. */
  static void stop(Process p) throws InterruptedException {
    List<ProcessHandle> children = p.descendants().toList();
    p.destroy();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    children.forEach(ProcessHandle::destroyForcibly);
  }

  /**
   * Waits (through {@link Poll}) until {@code done} holds; fails with {@code process}'s log when it
   * ends first or {@code timeout} passes. {@code what} is asked only when it fails, so it may say
   * the last state seen.
   */
  static void await(Supplier<String> what, Duration timeout, Process process, Path log, BooleanSupplier done) {
    try {
      Poll.until("", timeout, () -> {
        if (done.getAsBoolean()) {
          return true;
        }
        if (!process.isAlive()) {
          throw new IllegalStateException("the process ended with " + process.exitValue());
        }
        return false;
      });
    } catch (AssertionError | IllegalStateException e) {
      String why = e instanceof IllegalStateException ? e.getMessage() : "waited " + timeout;
      throw new AssertionError("waiting for " + what.get() + ": " + why + ":\n" + read(log), e);
    }
  }

  /** The file's text; empty when it does not exist yet. */
  static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e + ")";
    }
  }

  /**
   * A port for a process started later to bind (or one where nothing listens): below the kernel's
   * ephemeral range, so no socket bound to port 0 or dialling out takes it in the seconds it takes
   * that process to start, as one from {@code new ServerSocket(0)} could on a busy machine.
   */
  static int freePort() {
    return io.squall.api.bench.ChaosBench.restartablePort();
  }
}
