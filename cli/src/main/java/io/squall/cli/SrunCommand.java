package io.squall.cli;

import io.squall.agent.JobContext;
import io.squall.agent.SrunOptions;
import io.squall.agent.StepLaunch;
import io.squall.cli.service.ServiceException;
import io.squall.cli.service.StepGrant;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code squall srun [OPTIONS] COMMAND [ARGS...]} on a login node. Inside an allocation
 * ({@code SLURM_JOB_ID} set, as salloc sets it) it starts a step there; otherwise it asks for an
 * allocation of its own (sbatch's options: {@code -N}, {@code -n}, {@code --gres}, {@code -p},
 * {@code -t}, ...), runs one step in it and relinquishes it, as Slurm's srun does. The step is
 * started by the same code as the srun inside a batch job ({@link StepLaunch}): straight to the
 * nodes' agents with the job's credential, which the controller grants the job's owner. Exit
 * status: the highest of the tasks' exit codes, 1 when the step or the allocation cannot be had.
 */
final class SrunCommand extends ServiceVerb {
  static final String USAGE = """
      Usage: srun [-N NODES] [-n TASKS] [--ntasks-per-node N] [--gres=gpu:N] [--gpus...] [-p PART] [-t TIME]
                  [-J NAME] [-A ACCOUNT] [-q QOS] [-l] [--export=...] COMMAND [ARGS...]
      Inside an allocation (salloc) starts a step on its nodes; elsewhere allocates, runs one step and
      relinquishes the allocation. Any sbatch option shapes the allocation.""";

  SrunCommand(Invocation io) {
    super("srun", io);
  }

  int run(List<String> args) {
    if (args.size() == 1 && (args.get(0).equals("--help") || args.get(0).equals("--usage"))) {
      io.out().println(USAGE);
      return 0;
    }
    return guarded(() -> {
      InteractiveLine line = InteractiveLine.parse(args, true);
      if (line.command().isEmpty()) {
        throw new UsageException("no command given to execute", true);
      }
      line.ignored().forEach(o -> warning(o + " is ignored here"));
      String inside = io.env().get("SQUALL_JOB_KEY");
      if (inside == null || inside.isBlank()) {
        inside = io.env().get("SLURM_JOB_ID");
      }
      if (inside != null && !inside.isBlank()) {
        line.gpuOptions().forEach(o -> warning(o + " is ignored inside an allocation: a step's tasks see every GPU"
            + " of their nodes"));
        return step(inside, line);
      }
      return allocateAndRun(line);
    });
  }

  private int allocateAndRun(InteractiveLine line) {
    String name = Path.of(line.command().get(0)).getFileName().toString();
    return Allocation.use(this, io, line.options(), name, false, "Unable to allocate resources",
        allocation -> step(allocation.id(), line));
  }

  /** Starts one step in allocation {@code id} and relays it to the end; answers srun's exit status. */
  private int step(String id, InteractiveLine line) {
    StepGrant grant;
    try {
      grant = client().step(id);
    } catch (ServiceException e) {
      if (e.status() == 404 || e.status() == 409) {
        error("Unable to create step for job " + id + ": " + e.getMessage());
        return 1;
      }
      throw e;
    }
    List<String> nodes = new ArrayList<>();
    Map<String, URI> agents = new LinkedHashMap<>();
    for (StepGrant.Node n : grant.nodes()) {
      nodes.add(n.name());
      agents.put(n.name(), URI.create(n.address()));
    }
    JobContext job = new JobContext(grant.jobKey(), grant.credential(), nodes, agents);
    SrunOptions options;
    try {
      options = StepLaunch.options(line.ntasks(), line.ntasksPerNode(), line.nodes(), line.label(), line.command());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), true);
    }
    return StepLaunch.run(job, options, grant.step(), taskEnvironment(line, grant), io.cwd().toString(),
        client().address().caFile(), io.out(), io.err());
  }

  /**
   * What the tasks get, as srun's {@code --export} says (ALL by default: this shell's
   * environment), then the allocation's {@code SLURM_*} variables. The service token stays here.
   */
  private Map<String, String> taskEnvironment(InteractiveLine line, StepGrant grant) {
    Map<String, String> env = new TreeMap<>();
    String export = line.export();
    if (export == null) {
      export = "ALL";
    }
    for (String item : export.split(",")) {
      int eq = item.indexOf('=');
      if (item.equalsIgnoreCase("ALL")) {
        env.putAll(io.env());
      } else if (eq > 0) {
        env.put(item.substring(0, eq), item.substring(eq + 1));
      } else if (!item.equalsIgnoreCase("NONE") && io.env().containsKey(item)) {
        env.put(item, io.env().get(item));
      }
    }
    env.remove("SQUALL_TOKEN");
    env.putAll(grant.environment());
    return env;
  }
}
