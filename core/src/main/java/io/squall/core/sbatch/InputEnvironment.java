package io.squall.core.sbatch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * sbatch(1)'s INPUT ENVIRONMENT VARIABLES: {@code SBATCH_PARTITION=gpu} means
 * {@code --partition=gpu}. Upon startup sbatch reads them and they override the script's
 * directives; options on the command line override them. Each is read like the option it stands
 * for, and an error names the variable ({@code SBATCH_TIMELIMIT: --time=abc: invalid time ...}).
 *
 * <p>The table is the man page's (Slurm 23.02 and later) and slurm's sbatch/opt.c env_vars[]:
 * flags ({@code SBATCH_REQUEUE}) are set by their presence, whatever their value;
 * {@code SBATCH_EXCLUSIVE} and the other options with an optional value are flags when empty;
 * {@code SBATCH_REQ_SWITCH} and {@code SBATCH_WAIT4SWITCH} together are {@code --switches=N@time}.
 * {@code SBATCH_WAIT} is not here: the sbatch client acts on it itself, as on {@code --wait}.
 * Other variables, {@code SBATCH_NODES} included, are not sbatch's and are ignored, as by sbatch.
 */
public final class InputEnvironment {
  private static final String REQ_SWITCH = "SBATCH_REQ_SWITCH";
  private static final String WAIT4SWITCH = "SBATCH_WAIT4SWITCH";

  /** Each variable and its option, in env_vars[] order (a later one wins: SLURM_HINT over SBATCH_HINT). */
  private static final Map<String, SbatchOption> VARIABLES = new LinkedHashMap<>();

  static {
    put("SBATCH_ACCOUNT", SbatchOption.ACCOUNT);
    put("SBATCH_ACCTG_FREQ", SbatchOption.ACCTG_FREQ);
    put("SBATCH_ARRAY_INX", SbatchOption.ARRAY);
    put("SBATCH_BATCH", SbatchOption.BATCH);
    put("SBATCH_CLUSTERS", SbatchOption.CLUSTERS);
    put("SLURM_CLUSTERS", SbatchOption.CLUSTERS);
    put("SBATCH_CONSTRAINT", SbatchOption.CONSTRAINT);
    put("SBATCH_CONTAINER", SbatchOption.CONTAINER);
    put("SBATCH_CONTAINER_ID", SbatchOption.CONTAINER_ID);
    put("SBATCH_CORE_SPEC", SbatchOption.CORE_SPEC);
    put("SBATCH_CPUS_PER_GPU", SbatchOption.CPUS_PER_GPU);
    put("SBATCH_DEBUG", SbatchOption.VERBOSE);
    put("SBATCH_DELAY_BOOT", SbatchOption.DELAY_BOOT);
    put("SBATCH_DISTRIBUTION", SbatchOption.DISTRIBUTION);
    put("SBATCH_ERROR", SbatchOption.ERROR);
    put("SBATCH_EXCLUSIVE", SbatchOption.EXCLUSIVE);
    put("SBATCH_EXPORT", SbatchOption.EXPORT);
    put("SBATCH_GET_USER_ENV", SbatchOption.GET_USER_ENV);
    put("SBATCH_GPU_BIND", SbatchOption.GPU_BIND);
    put("SBATCH_GPU_FREQ", SbatchOption.GPU_FREQ);
    put("SBATCH_GPUS", SbatchOption.GPUS);
    put("SBATCH_GPUS_PER_NODE", SbatchOption.GPUS_PER_NODE);
    put("SBATCH_GPUS_PER_TASK", SbatchOption.GPUS_PER_TASK);
    put("SBATCH_GRES", SbatchOption.GRES);
    put("SBATCH_GRES_FLAGS", SbatchOption.GRES_FLAGS);
    put("SBATCH_HINT", SbatchOption.HINT);
    put("SLURM_HINT", SbatchOption.HINT);
    put("SBATCH_IGNORE_PBS", SbatchOption.IGNORE_PBS);
    put("SBATCH_INPUT", SbatchOption.INPUT);
    put("SBATCH_JOB_NAME", SbatchOption.JOB_NAME);
    put("SBATCH_MEM_BIND", SbatchOption.MEM_BIND);
    put("SBATCH_MEM_PER_CPU", SbatchOption.MEM_PER_CPU);
    put("SBATCH_MEM_PER_GPU", SbatchOption.MEM_PER_GPU);
    put("SBATCH_MEM_PER_NODE", SbatchOption.MEM);
    put("SBATCH_NETWORK", SbatchOption.NETWORK);
    put("SBATCH_NO_KILL", SbatchOption.NO_KILL);
    put("SBATCH_NO_REQUEUE", SbatchOption.NO_REQUEUE);
    put("SBATCH_OPEN_MODE", SbatchOption.OPEN_MODE);
    put("SBATCH_OUTPUT", SbatchOption.OUTPUT);
    put("SBATCH_OVERCOMMIT", SbatchOption.OVERCOMMIT);
    put("SBATCH_PARTITION", SbatchOption.PARTITION);
    put("SBATCH_POWER", SbatchOption.POWER);
    put("SBATCH_PROFILE", SbatchOption.PROFILE);
    put("SBATCH_QOS", SbatchOption.QOS);
    put("SBATCH_REQUEUE", SbatchOption.REQUEUE);
    put("SBATCH_RESERVATION", SbatchOption.RESERVATION);
    put("SBATCH_SEGMENT_SIZE", SbatchOption.SEGMENT);
    put("SBATCH_SIGNAL", SbatchOption.SIGNAL);
    put("SBATCH_SPREAD_JOB", SbatchOption.SPREAD_JOB);
    put("SBATCH_THREAD_SPEC", SbatchOption.THREAD_SPEC);
    put("SBATCH_THREADS_PER_CORE", SbatchOption.THREADS_PER_CORE);
    put("SBATCH_TIMELIMIT", SbatchOption.TIME);
    put("SBATCH_TRES_BIND", SbatchOption.TRES_BIND);
    put("SBATCH_TRES_PER_TASK", SbatchOption.TRES_PER_TASK);
    put("SBATCH_USE_MIN_NODES", SbatchOption.USE_MIN_NODES);
    put("SBATCH_WAIT_ALL_NODES", SbatchOption.WAIT_ALL_NODES);
    put("SBATCH_WCKEY", SbatchOption.WCKEY);
  }

  private InputEnvironment() {}

  private static void put(String variable, SbatchOption option) {
    VARIABLES.put(variable, option);
  }

  /**
   * The options the environment's input variables stand for, each marked with its variable.
   *
   * @param warnings where to say that a variable was set but has no effect
   */
  static List<OptionValue> options(Map<String, String> environment, List<String> warnings) {
    List<OptionValue> out = new ArrayList<>();
    VARIABLES.forEach((variable, option) -> {
      String value = environment.get(variable);
      if (value != null) {
        out.add(option(variable, option, value));
      }
    });
    String switches = environment.get(REQ_SWITCH);
    String wait = environment.get(WAIT4SWITCH);
    if (switches != null) {
      String value = wait == null ? switches : switches + "@" + wait;
      out.add(new OptionValue(SbatchOption.SWITCHES, value, wait == null ? REQ_SWITCH : REQ_SWITCH + " and "
          + WAIT4SWITCH, "--switches=" + value));
    } else if (wait != null) {
      warnings.add(WAIT4SWITCH + "=" + wait + " has no effect without " + REQ_SWITCH
          + " (the number of switches to wait for)");
    }
    return out;
  }

  private static OptionValue option(String variable, SbatchOption option, String value) {
    String flag = "--" + option.longName();
    return switch (option.arg()) {
      case NONE -> new OptionValue(option.canonical(), null, variable, flag);
      case OPTIONAL -> value.isEmpty() ? new OptionValue(option.canonical(), null, variable, flag)
          : new OptionValue(option.canonical(), value, variable, flag + "=" + value);
      case REQUIRED -> new OptionValue(option.canonical(), value, variable, flag + "=" + value);
    };
  }
}
