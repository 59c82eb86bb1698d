package io.squall.agent;

import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts one srun step on a job's nodes through their agents and relays its output: what the
 * srun inside a batch job does, and what {@code squall srun} does on a login node once the
 * controller has granted it a step. One piece of code for both, so a step behaves the same
 * wherever srun runs.
 */
public final class StepLaunch {
  private StepLaunch() {}

  /**
   * Runs the step to its end. Exit status, as Slurm's srun: the highest of the tasks' exit codes
   * (128+n for a task killed by signal n), 0 when all succeed, 1 when the step cannot run (the
   * reason printed as {@code srun: error: ...} on {@code err}).
   *
   * @param env the environment the tasks get, before the step's own SLURM_NTASKS, SLURM_NNODES...
   * @param workDir the tasks' working directory on their nodes
   * @param caFile the CA that agents serving HTTPS are checked against; null for the JDK's
   */
  public static int run(JobContext job, SrunOptions options, int step, Map<String, String> env, String workDir,
      Path caFile, PrintStream out, PrintStream err) {
    try {
      return start(job, options, step, env, workDir, caFile, out, err);
    } catch (StepException e) {
      err.println("srun: error: " + e.getMessage());
      return 1;
    }
  }

  static int start(JobContext job, SrunOptions options, int step, Map<String, String> env, String workDir,
      Path caFile, PrintStream out, PrintStream err) throws StepException {
    StepLayout layout = StepLayout.plan(options, job.nodes(), env, job.jobKey());
    for (StepLayout.NodeTasks node : layout.nodes()) {
      job.agent(node.node());
    }
    Map<String, String> stepEnv = new LinkedHashMap<>(env);
    // What Slurm's srun sets for the step's tasks; the agents add each task's own place.
    String ntasks = Integer.toString(layout.ntasks());
    String nnodes = Integer.toString(layout.nodes().size());
    stepEnv.put("SLURM_NTASKS", ntasks);
    stepEnv.put("SLURM_NPROCS", ntasks);
    stepEnv.put("SLURM_NNODES", nnodes);
    stepEnv.put("SLURM_STEP_NUM_NODES", nnodes);
    return new RunningStep(job, layout, step, options.label(), trusting(caFile), out, err)
        .run(options.command(), stepEnv, workDir);
  }

  /** A client for the agents that trusts {@code caFile}'s CA, or the JDK's when it is null. */
  private static HttpClient.Builder trusting(Path caFile) throws StepException {
    try {
      return CaFile.trusting(HttpClient.newBuilder(), caFile);
    } catch (TlsFileException e) {
      throw new StepException(CaFile.ENV + ": " + e.getMessage());
    }
  }

  /**
   * srun's options as a login-node srun has read them, checked as the in-job srun checks its own.
   *
   * @throws IllegalArgumentException with srun's words when the command is empty
   */
  public static SrunOptions options(Integer ntasks, Integer ntasksPerNode, Integer nodes, boolean label,
      List<String> command) {
    if (command.isEmpty()) {
      throw new IllegalArgumentException("no command given to execute");
    }
    return new SrunOptions(ntasks, ntasksPerNode, nodes, label, List.copyOf(command));
  }
}
