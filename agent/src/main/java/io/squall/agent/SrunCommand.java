package io.squall.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
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
      StepLayout layout = StepLayout.plan(options, job.nodes(), env, job.jobKey());
      for (StepLayout.NodeTasks node : layout.nodes()) {
        job.agent(node.node());
      }
      int step = nextStep(job.jobKey());
      Map<String, String> stepEnv = new LinkedHashMap<>(env);
      // What Slurm's srun sets for the step's tasks; the agents add each task's own place.
      String ntasks = Integer.toString(layout.ntasks());
      String nnodes = Integer.toString(layout.nodes().size());
      stepEnv.put("SLURM_NTASKS", ntasks);
      stepEnv.put("SLURM_NPROCS", ntasks);
      stepEnv.put("SLURM_NNODES", nnodes);
      stepEnv.put("SLURM_STEP_NUM_NODES", nnodes);
      return new RunningStep(job, layout, step, options.label(), out, err)
          .run(options.command(), stepEnv, workDir);
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
