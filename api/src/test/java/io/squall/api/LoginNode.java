package io.squall.api;

import io.squall.agent.JavaCommand;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A login node for tests: runs the real CLI ({@code squall salloc}, {@code squall srun}, ...) as
 * processes of this class path against a controller, with {@code srun} on their PATH as
 * {@code bin/srun} puts it there, and their output in files in {@code dir}.
 */
final class LoginNode {
  private final Path dir;
  private final Path bin;
  private final String url;
  private final Map<Process, String> outputs = new ConcurrentHashMap<>();

  LoginNode(Path dir, String url) throws IOException {
    this.dir = dir;
    this.url = url;
    this.bin = Files.createDirectories(dir.resolve("bin"));
    Path srun = bin.resolve("srun");
    Files.writeString(srun, "#!/bin/sh\nexec \"$SQUALL_TEST_JAVA\" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp"
        + " \"$SQUALL_TEST_CP\" io.squall.cli.Main srun \"$@\"\n");
    Files.setPosixFilePermissions(srun, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** A CLI run to its end. */
  record Run(int status, String out, String err) {
    @Override
    public String toString() {
      return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  Run run(String token, String... args) {
    return run(Map.of(), token, args);
  }

  /** Runs {@code squall ARGS} as the token's user to its end (at most {@code 90 s}). */
  Run run(Map<String, String> extraEnv, String token, String... args) {
    Process p = start(extraEnv, token, args);
    try {
      if (!p.waitFor(90, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(String.join(" ", args) + " did not end");
      }
      return new Run(p.exitValue(), read(p, true), read(p, false));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  Process start(String token, String... args) {
    return start(Map.of(), token, args);
  }

  /** Starts {@code squall ARGS} as the token's user, in {@code dir}, with no input. */
  Process start(Map<String, String> extraEnv, String token, String... args) {
    List<String> command = new ArrayList<>(List.of(JavaCommand.executable()));
    command.addAll(JavaCommand.QUICK_START);
    command.addAll(List.of("-cp", JavaCommand.classPath(), "io.squall.cli.Main"));
    command.addAll(List.of(args));
    String name = "cli-" + System.nanoTime();
    ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(dir.resolve(name + ".out").toFile())
        .redirectError(dir.resolve(name + ".err").toFile());
    Map<String, String> env = b.environment();
    env.keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("SQUALL_") || k.startsWith("SBATCH_"));
    env.put("SQUALL_URL", url);
    env.put("SQUALL_TOKEN", token);
    env.put("SQUALL_TEST_JAVA", JavaCommand.executable());
    env.put("SQUALL_TEST_CP", JavaCommand.classPath());
    env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.putAll(extraEnv);
    try {
      Process p = b.start();
      outputs.put(p, name);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the process has written so far to its standard output (or error). */
  String read(Process p, boolean stdout) {
    try {
      return Files.readString(dir.resolve(outputs.get(p) + (stdout ? ".out" : ".err")), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The job id a command printed as {@code job=ID}, waited for with {@code until}. */
  String printedJob(Process p, Duration timeout, PollWith until) {
    return until.poll("the job id on " + p.pid() + "'s output", timeout, () -> {
      Matcher m = Pattern.compile("job=(\\d+)").matcher(read(p, true));
      return m.find() ? m.group(1) : null;
    });
  }

  /** {@link Poll#until} or a manual clock's {@code until}. */
  interface PollWith {
    String poll(String what, Duration timeout, Supplier<String> probe);
  }
}
