package io.squall.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Slurm's srun inside a batch job: starts a step's tasks on the job's nodes through their agents
 * and relays their output. Exit status, as Slurm's srun: the highest of the tasks' exit codes
 * (128+n for a task killed by signal n), 0 when all succeed, 1 when the step cannot run.
 */
final class SrunCommand {
  private SrunCommand() {}

  static int run(List<String> args, Map<String, String> env, String workDir, PrintStream out, PrintStream err) {
    try {
      SrunOptions options = SrunOptions.parse(args, err);
      JobContext job = JobContext.fromEnvironment(env);
      StepLayout.plan(options, job.nodes(), env, job.jobKey());
      String caFile = env.get(CaFile.ENV);
      return StepLaunch.start(job, options, nextStep(job.jobKey()), env, workDir,
          caFile == null || caFile.isBlank() ? null : Path.of(caFile), out, err);
    } catch (StepException e) {
      err.println("srun: error: " + e.getMessage());
      return 1;
    }
  }

  private static int nextStep(String jobKey) throws StepException {
    try {
      return StepCounter.next(StepCounter.location(System.getProperty(ToolDirectory.WORK_DIR_PROPERTY), jobKey));
    } catch (IOException e) {
      throw new StepException("cannot number the step: " + e.getMessage());
    }
  }
}
