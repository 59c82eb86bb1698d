package io.squall.agent;

import io.squall.agent.Protocol.JobSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Starts a job's batch script on the first node of its allocation, the way slurmstepd does. */
final class BatchLauncher {
  private static final Path DEV_NULL = Path.of("/dev/null");

  private final String nodeName;
  private final Path jobsDir;
  private final Path toolDir;
  private final Sessions sessions;
  private final Map<String, String> agentEnv;

  BatchLauncher(String nodeName, Path jobsDir, Path toolDir, Sessions sessions, Map<String, String> agentEnv) {
    this.nodeName = nodeName;
    this.jobsDir = jobsDir;
    this.toolDir = toolDir;
    this.sessions = sessions;
    this.agentEnv = Map.copyOf(agentEnv);
  }

  /** A started batch script and the files its output goes to (the same path twice when shared). */
  record BatchRun(Launched launched, Path stdout, Path stderr) {}

  /** The script could not be started; the message says why, for the agent's log. */
  static final class LaunchFailure extends Exception {
    private static final long serialVersionUID = 1L;

    LaunchFailure(String message) {
      super(message);
    }
  }

  /**
   * Writes the script to {@code jobs/<job>/script} and starts it: with its own {@code #!}
   * interpreter, else /bin/bash, in the job's directory, with the job's environment, stdin from
   * its {@code --input} file (else /dev/null), stdout and stderr to the job's files.
   *
   * @throws LaunchFailure when an output file's directory is missing or the input file cannot be
   *     read (like Slurm, the job then fails without writing anything), or the script cannot be
   *     written or started
   */
  BatchRun start(JobSpec spec) throws LaunchFailure {
    Path dir = jobsDir.resolve(spec.job());
    Path workDir = spec.workDir() == null ? dir : Path.of(spec.workDir());
    Path stdout = outputFile(workDir, spec.stdout() == null ? "slurm-" + spec.job() + ".out" : spec.stdout());
    Path stderr = spec.stderr() == null ? stdout : outputFile(workDir, spec.stderr());
    for (Path file : List.of(stdout, stderr)) {
      if (!Files.isDirectory(file.getParent())) {
        throw new LaunchFailure("directory of " + file + " does not exist");
      }
    }
    Path stdin = spec.stdin() == null ? DEV_NULL : workDir.resolve(spec.stdin()).toAbsolutePath().normalize();
    if (!Files.isRegularFile(stdin) && !stdin.equals(DEV_NULL) || !Files.isReadable(stdin)) {
      throw new LaunchFailure("cannot open the input file " + stdin);
    }
    try {
      Path script = writeScript(dir, spec.script());
      open(stdout, spec.append());
      if (!stderr.equals(stdout)) {
        open(stderr, spec.append());
      }
      StartDirectory cwd = StartDirectory.of(workDir);
      if (cwd.complaint() != null) {
        Files.writeString(stderr, cwd.complaint(), StandardOpenOption.APPEND);
      }
      ProcessBuilder builder = new ProcessBuilder(command(script, spec))
          .directory(cwd.path().toFile())
          .redirectInput(ProcessBuilder.Redirect.from(stdin.toFile()))
          .redirectOutput(ProcessBuilder.Redirect.appendTo(stdout.toFile()));
      if (stderr.equals(stdout)) {
        builder.redirectErrorStream(true);
      } else {
        builder.redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
      }
      builder.environment().clear();
      builder.environment().putAll(JobEnvironment.forBatch(spec, nodeName, toolDir, agentEnv));
      return new BatchRun(sessions.start(builder), stdout, stderr);
    } catch (IOException e) {
      throw new LaunchFailure("cannot start the batch script: " + e.getMessage());
    }
  }

  private static Path outputFile(Path workDir, String name) {
    return workDir.resolve(name).toAbsolutePath().normalize();
  }

  private static Path writeScript(Path dir, String text) throws IOException {
    Files.createDirectories(dir);
    Path script = dir.resolve("script");
    Files.writeString(script, text == null ? "" : text, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  /** Slurm's --open-mode: truncate (the default) or append to what an earlier run left. */
  private static void open(Path file, boolean append) throws IOException {
    StandardOpenOption mode = append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING;
    try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, mode)) {
      out.flush();
    }
  }

  /** The kernel honours the script's {@code #!} line when it is executed directly. */
  private static List<String> command(Path script, JobSpec spec) {
    List<String> command = new ArrayList<>();
    if (spec.script() == null || !spec.script().startsWith("#!")) {
      command.add("/bin/bash");
    }
    command.add(script.toString());
    command.addAll(spec.args());
    return command;
  }
}
