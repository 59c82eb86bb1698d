package io.squall.agent;

import io.squall.agent.Protocol.JobSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
  private final JobUsers users;

  BatchLauncher(String nodeName, Path jobsDir, Path toolDir, Sessions sessions, Map<String, String> agentEnv,
      JobUsers users) {
    this.users = users;
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
    JobUser user;
    try {
      user = users.of(spec.runAs());
    } catch (IllegalArgumentException e) {
      throw new LaunchFailure(e.getMessage());
    }
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
      Path script = writeScript(dir, spec.script(), user);
      Map<String, String> env = JobEnvironment.forBatch(spec, nodeName, toolDir, agentEnv);
      JobFiles.checkpointDirectory(env.get("SQUALL_CHECKPOINT_DIR"), user);
      // The files are opened by the job's own process, as its user (JobCommand); what that shell
      // says before it becomes the script (a file it may not write) goes to the agent's log.
      ProcessBuilder builder = new ProcessBuilder(JobCommand.of(user, stdin, stdout.toString(), stderr.toString(),
          !spec.append(), workDir, command(script, spec)))
          .directory(JobCommand.FALLBACK_DIR.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL.toFile()))
          .redirectOutput(ProcessBuilder.Redirect.INHERIT)
          .redirectError(ProcessBuilder.Redirect.INHERIT);
      builder.environment().clear();
      builder.environment().putAll(env);
      return new BatchRun(sessions.start(builder), stdout, stderr);
    } catch (IOException e) {
      throw new LaunchFailure("cannot start the batch script: " + e.getMessage());
    }
  }

  private static Path outputFile(Path workDir, String name) {
    return workDir.resolve(name).toAbsolutePath().normalize();
  }

  /** The script, in a directory of the job's user's own (srun keeps its step counter there too). */
  private static Path writeScript(Path dir, String text, JobUser user) throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    Path script = dir.resolve("script");
    Files.writeString(script, text == null ? "" : text, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    JobFiles.giveTo(user, script, dir);
    return script;
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
