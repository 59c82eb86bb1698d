package io.squall.agent;

import io.squall.agent.Protocol.TaskExit;
import io.squall.agent.Protocol.TaskOutput;
import io.squall.agent.Protocol.TaskRequest;
import io.squall.agent.Protocol.TaskSlot;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one srun step's tasks on this node ({@code POST /jobs/{job}/tasks}): one process per
 * task, its output streamed back line by line and, last for each task, its exit.
 */
final class StepRunner {
  private static final Path DEV_NULL = Path.of("/dev/null");
  /**
   * How long a task's output may still drain after it ended and its group was killed; only a
   * process that left the group (its own setsid) can hold the pipe open longer.
   */
  private static final long DRAIN_SECONDS = 10;

  private final String nodeName;
  private final Sessions sessions;
  private final ExecutorService workers;
  private final AgentLog log;
  private final JobUsers users;

  private final Path home;

  StepRunner(String nodeName, Path home, Sessions sessions, JobUsers users, ExecutorService workers, AgentLog log) {
    this.home = home;
    this.users = users;
    this.nodeName = nodeName;
    this.sessions = sessions;
    this.workers = workers;
    this.log = log;
  }

  /** Runs the request's tasks, streaming JSON lines to {@code body}; returns when all have ended. */
  void run(NodeJob job, TaskRequest request, OutputStream body) {
    JsonLines lines = new JsonLines(body, () -> {
      // srun is gone (killed, or its node lost): its tasks would run unseen, so they end too.
      log.warn("job " + job.key() + " step " + request.step() + ": srun went away; killing its tasks here");
      job.killStep(request.step());
    });
    List<Future<?>> tasks = new ArrayList<>();
    for (TaskSlot slot : request.tasks()) {
      tasks.add(workers.submit(() -> runTask(job, request, slot, lines)));
    }
    for (Future<?> task : tasks) {
      try {
        task.get();
      } catch (ExecutionException e) {
        log.warn("job " + job.key() + " step " + request.step() + ": task failed: " + e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void runTask(NodeJob job, TaskRequest request, TaskSlot slot, JsonLines lines) {
    int procid = slot.procid();
    Map<String, String> env = JobEnvironment.forTask(request, slot, nodeName, home, job.spec().gpus());
    String dir = request.workDir() != null ? request.workDir() : job.spec().workDir();
    Path cwd = dir == null ? JobCommand.FALLBACK_DIR : Path.of(dir);
    String program = request.argv().get(0);
    Optional<Path> executable = CommandLookup.find(program, env.get("PATH"),
        Files.isDirectory(cwd) ? cwd : JobCommand.FALLBACK_DIR);
    if (executable.isEmpty()) {
      execFailed(lines, procid, program, "No such file or directory");
      return;
    }
    JobUser user;
    try {
      user = users.of(job.spec().runAs());
    } catch (IllegalArgumentException e) {
      execFailed(lines, procid, program, e.getMessage());
      return;
    }
    List<String> argv = new ArrayList<>(request.argv());
    argv.set(0, executable.get().toString());
    // stdout and stderr stay pipes to this agent; the working directory is entered as the task's user.
    ProcessBuilder builder = new ProcessBuilder(JobCommand.of(user, DEV_NULL, JobCommand.KEEP, JobCommand.KEEP,
        false, cwd, argv))
        .directory(JobCommand.FALLBACK_DIR.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL.toFile()));
    builder.environment().clear();
    builder.environment().putAll(env);
    Launched task;
    try {
      task = sessions.start(builder);
    } catch (IOException e) {
      execFailed(lines, procid, program, e.getMessage());
      return;
    }
    job.addTask(request.step(), task);
    AtomicBoolean open = new AtomicBoolean(true);
    try {
      Future<?> out = workers.submit(() -> pipe(task.process().getInputStream(), procid, "stdout", lines, open));
      Future<?> err = workers.submit(() -> pipe(task.process().getErrorStream(), procid, "stderr", lines, open));
      int status = task.process().waitFor();
      NodeJob.endGroup(task);
      drain(out);
      drain(err);
      open.set(false);
      ExitStatus exit = ExitStatus.fromWaitStatus(status);
      lines.write(new TaskExit(procid, exit.exitCode(), exit.signal()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      job.removeTask(request.step(), task);
    }
  }

  private static void execFailed(JsonLines lines, int procid, String program, String why) {
    lines.write(new TaskOutput(procid, "stderr", "slurmstepd: error: execve(): " + program + ": " + why + "\n"));
    lines.write(new TaskExit(procid, ExitStatus.EXEC_FAILED.exitCode(), null));
  }

  private static void drain(Future<?> reader) throws InterruptedException {
    try {
      reader.get(DRAIN_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // Whatever is still unread stays unread: the task's exit must not wait on a stranger.
    }
  }

  /** Streams one of a task's pipes as lines until it closes; nothing once the task's exit is sent. */
  private static void pipe(InputStream in, int procid, String stream, JsonLines lines, AtomicBoolean open) {
    OutputLines.split(in, OutputLines.MAX_LINE_BYTES, data -> {
      if (open.get()) {
        lines.write(new TaskOutput(procid, stream, data));
      }
    });
  }
}
