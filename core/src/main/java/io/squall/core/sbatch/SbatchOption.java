package io.squall.core.sbatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every option of sbatch(1) (Slurm 22.05 and later: the options Slurm's slurm_opt.c gives sbatch),
 * with Slurm's long names, short letters and arguments. Each is accepted: those Squall cannot
 * honour carry the reason, which the parser turns into a warning ("a script that real Slurm
 * accepts is never rejected").
 */
public enum SbatchOption {
  ACCOUNT("account", 'A', Arg.REQUIRED, null),
  ACCTG_FREQ("acctg-freq", '\0', Arg.REQUIRED, "Squall gathers no accounting samples"),
  ARRAY("array", 'a', Arg.REQUIRED, null),
  AUTOCOMPLETE("autocomplete", '\0', Arg.REQUIRED,
      "it makes sbatch print shell completions and submit nothing; Squall submits"),
  BATCH("batch", '\0', Arg.REQUIRED, "the batch step runs on the first node of the allocation, whatever its features"),
  BB("bb", '\0', Arg.REQUIRED, "burst buffers are not modelled"),
  BBF("bbf", '\0', Arg.REQUIRED, "burst buffers are not modelled"),
  BEGIN("begin", 'b', Arg.REQUIRED, null),
  CHDIR("chdir", 'D', Arg.REQUIRED, null),
  CLUSTER("cluster", '\0', Arg.REQUIRED, "Squall is one cluster", "CLUSTERS"),
  CLUSTER_CONSTRAINT("cluster-constraint", '\0', Arg.REQUIRED, "Squall is one cluster (no federation)"),
  CLUSTERS("clusters", 'M', Arg.REQUIRED, "Squall is one cluster"),
  COMMENT("comment", '\0', Arg.REQUIRED, null),
  CONSTRAINT("constraint", 'C', Arg.REQUIRED, null),
  CONTAINER("container", '\0', Arg.REQUIRED, "OCI bundles are not run; --container-image is"),
  CONTAINER_ID("container-id", '\0', Arg.REQUIRED, "OCI containers are not run"),
  CONTAINER_IMAGE("container-image", '\0', Arg.REQUIRED, null),
  CONTEXT("context", '\0', Arg.REQUIRED, "SELinux contexts are not set"),
  CONTIGUOUS("contiguous", '\0', Arg.NONE, "node order is not modelled; a gang prefers one placement group"),
  CORE_SPEC("core-spec", 'S', Arg.REQUIRED, "no cores are set aside for the system"),
  CORES_PER_SOCKET("cores-per-socket", '\0', Arg.REQUIRED, Why.LAYOUT),
  CPU_FREQ("cpu-freq", '\0', Arg.REQUIRED, "CPU frequencies are not set"),
  CPUS_PER_GPU("cpus-per-gpu", '\0', Arg.REQUIRED, null),
  CPUS_PER_TASK("cpus-per-task", 'c', Arg.REQUIRED, null),
  DEADLINE("deadline", '\0', Arg.REQUIRED, null),
  DELAY_BOOT("delay-boot", '\0', Arg.REQUIRED, "nodes are never rebooted for a job"),
  DEPENDENCY("dependency", 'd', Arg.REQUIRED, null),
  DISTRIBUTION("distribution", 'm', Arg.REQUIRED, null),
  ERROR("error", 'e', Arg.REQUIRED, null),
  EXCLUDE("exclude", 'x', Arg.REQUIRED, null),
  EXCLUSIVE("exclusive", '\0', Arg.OPTIONAL, null),
  EXPORT("export", '\0', Arg.REQUIRED, null),
  EXPORT_FILE("export-file", '\0', Arg.REQUIRED, "the file is on the submit host and is not read; use --export"),
  EXTRA("extra", '\0', Arg.REQUIRED, "node extra data is not matched"),
  EXTRA_NODE_INFO("extra-node-info", 'B', Arg.REQUIRED, Why.LAYOUT),
  GET_USER_ENV("get-user-env", '\0', Arg.OPTIONAL,
      "the job gets the environment sent with the submission (--export), not a login shell's"),
  GID("gid", '\0', Arg.REQUIRED, Why.NOT_AS_USER),
  GPU_BIND("gpu-bind", '\0', Arg.REQUIRED, null),
  GPU_FREQ("gpu-freq", '\0', Arg.REQUIRED, "GPU clocks are not set"),
  GPUS("gpus", 'G', Arg.REQUIRED, null),
  GPUS_PER_NODE("gpus-per-node", '\0', Arg.REQUIRED, null),
  GPUS_PER_SOCKET("gpus-per-socket", '\0', Arg.REQUIRED, Why.LAYOUT),
  GPUS_PER_TASK("gpus-per-task", '\0', Arg.REQUIRED, null),
  GRES("gres", '\0', Arg.REQUIRED, null),
  GRES_FLAGS("gres-flags", '\0', Arg.REQUIRED, "GPU-to-core binding is not enforced"),
  HELP("help", 'h', Arg.NONE, Why.EARLY),
  HINT("hint", '\0', Arg.REQUIRED, null),
  HOLD("hold", 'H', Arg.NONE, null),
  IGNORE_PBS("ignore-pbs", '\0', Arg.NONE, "#PBS lines are never read"),
  INPUT("input", 'i', Arg.REQUIRED, null),
  JOB_NAME("job-name", 'J', Arg.REQUIRED, null),
  KILL_ON_INVALID_DEP("kill-on-invalid-dep", '\0', Arg.REQUIRED,
      "a job whose dependency can never be satisfied follows Squall's own rule"),
  LICENSES("licenses", 'L', Arg.REQUIRED, "licenses are not modelled"),
  MAIL_TYPE("mail-type", '\0', Arg.REQUIRED, "Squall sends no mail"),
  MAIL_USER("mail-user", '\0', Arg.REQUIRED, "Squall sends no mail"),
  MCS_LABEL("mcs-label", '\0', Arg.REQUIRED, "MCS labels are not modelled"),
  MEM("mem", '\0', Arg.REQUIRED, null),
  MEM_BIND("mem-bind", '\0', Arg.REQUIRED, "memory binding is not set"),
  MEM_PER_CPU("mem-per-cpu", '\0', Arg.REQUIRED, null),
  MEM_PER_GPU("mem-per-gpu", '\0', Arg.REQUIRED, null),
  MINCPUS("mincpus", '\0', Arg.REQUIRED, "nodes are not chosen by a minimum CPU count"),
  NETWORK("network", '\0', Arg.REQUIRED, "network resources are not modelled"),
  NICE("nice", '\0', Arg.OPTIONAL, null),
  NO_KILL("no-kill", 'k', Arg.OPTIONAL, "a gang loses its job when one of its nodes fails"),
  NO_REQUEUE("no-requeue", '\0', Arg.NONE, null),
  NODEFILE("nodefile", 'F', Arg.REQUIRED, "the file is on the submit host and is not read; use --nodelist"),
  NODELIST("nodelist", 'w', Arg.REQUIRED, null),
  NODES("nodes", 'N', Arg.REQUIRED, null),
  NTASKS("ntasks", 'n', Arg.REQUIRED, null),
  NTASKS_PER_CORE("ntasks-per-core", '\0', Arg.REQUIRED, Why.LAYOUT),
  NTASKS_PER_GPU("ntasks-per-gpu", '\0', Arg.REQUIRED, null),
  NTASKS_PER_NODE("ntasks-per-node", '\0', Arg.REQUIRED, null),
  NTASKS_PER_SOCKET("ntasks-per-socket", '\0', Arg.REQUIRED, Why.LAYOUT),
  NTASKS_PER_TRES("ntasks-per-tres", '\0', Arg.REQUIRED, null, "NTASKS_PER_GPU"),
  OPEN_MODE("open-mode", '\0', Arg.REQUIRED, null),
  OUTPUT("output", 'o', Arg.REQUIRED, null),
  OVERCOMMIT("overcommit", 'O', Arg.NONE, "CPUs are not overcommitted"),
  OVERSUBSCRIBE("oversubscribe", 's', Arg.NONE, "nodes are shared as the partition allows"),
  PARSABLE("parsable", '\0', Arg.NONE, Why.CLIENT),
  PARTITION("partition", 'p', Arg.REQUIRED, null),
  POWER("power", '\0', Arg.REQUIRED, "power management is not modelled"),
  PREFER("prefer", '\0', Arg.REQUIRED, "soft feature preferences are not used in placement"),
  PRIORITY("priority", '\0', Arg.REQUIRED, null),
  PROFILE("profile", '\0', Arg.REQUIRED, "no profiling data is gathered"),
  PROPAGATE("propagate", '\0', Arg.OPTIONAL, "the submit shell's resource limits are not propagated"),
  QOS("qos", 'q', Arg.REQUIRED, null),
  QUIET("quiet", 'Q', Arg.NONE, Why.EARLY),
  REBOOT("reboot", '\0', Arg.NONE, "nodes are never rebooted for a job"),
  REQUEUE("requeue", '\0', Arg.NONE, null),
  RESERVATION("reservation", '\0', Arg.REQUIRED, null),
  SEGMENT("segment", '\0', Arg.REQUIRED, "topology segments are not modelled"),
  SIGNAL("signal", '\0', Arg.REQUIRED, null),
  SOCKETS_PER_NODE("sockets-per-node", '\0', Arg.REQUIRED, Why.LAYOUT),
  SPREAD_JOB("spread-job", '\0', Arg.NONE, "a gang is packed into the fewest placement groups"),
  STEPMGR("stepmgr", '\0', Arg.NONE, "steps are managed by the controller"),
  SWITCHES("switches", '\0', Arg.REQUIRED, null),
  TASKS_PER_NODE("tasks-per-node", '\0', Arg.REQUIRED, null, "NTASKS_PER_NODE"),
  TEST_ONLY("test-only", '\0', Arg.NONE, Why.CLIENT),
  THREAD_SPEC("thread-spec", '\0', Arg.REQUIRED, "no threads are set aside for the system"),
  THREADS_PER_CORE("threads-per-core", '\0', Arg.REQUIRED, Why.LAYOUT),
  TIME("time", 't', Arg.REQUIRED, null),
  TIME_MIN("time-min", '\0', Arg.REQUIRED, null),
  TMP("tmp", '\0', Arg.REQUIRED, "local disk is not modelled"),
  TRES_BIND("tres-bind", '\0', Arg.REQUIRED, "TRES binding is not set; --gpu-bind is"),
  TRES_PER_TASK("tres-per-task", '\0', Arg.REQUIRED, "use --cpus-per-task and --gpus-per-task, which are honoured"),
  UID("uid", '\0', Arg.REQUIRED, Why.NOT_AS_USER),
  USAGE("usage", '\0', Arg.NONE, Why.EARLY),
  USE_MIN_NODES("use-min-nodes", '\0', Arg.NONE, "a node range starts on as many free nodes as it may"),
  VERBOSE("verbose", 'v', Arg.NONE, Why.EARLY),
  VERSION("version", 'V', Arg.NONE, Why.EARLY),
  WAIT("wait", 'W', Arg.NONE, Why.CLIENT),
  WAIT_ALL_NODES("wait-all-nodes", '\0', Arg.REQUIRED, null),
  WCKEY("wckey", '\0', Arg.REQUIRED, "workload characterization keys are not tracked"),
  WRAP("wrap", '\0', Arg.REQUIRED, Why.EARLY);

  /** Reasons several options share. */
  private static final class Why {
    static final String LAYOUT = "Squall chooses nodes by GPUs, CPUs and memory; the socket, core and thread"
        + " layout is not modelled";
    static final String EARLY = "sbatch acts on it itself (help, messages, --wrap) only on its own command line"
        + " and ignores it in a script";
    static final String CLIENT = "sbatch acts on it only when it is given on the command line of squall sbatch";
    static final String NOT_AS_USER = "jobs run as the submitting user; only root may use it in Slurm";
  }

  /** Whether the option takes a value: getopt's no_argument, required_argument, optional_argument. */
  public enum Arg { NONE, REQUIRED, OPTIONAL }

  /**
   * Options of srun and salloc that sbatch refuses (slurm_opt.c gives them no sbatch setter, so
   * sbatch's getopt does not know them): named in the error, as users often mean the srun one.
   */
  private static final List<String> NOT_SBATCH = List.of("accel-bind", "bcast", "bell", "cpu-bind", "exact",
      "het-group", "immediate", "interactive", "jobid", "kill-on-bad-exit", "label", "mpi", "multi-prog",
      "no-allocate", "no-bell", "no-shell", "overlap", "pty", "relative", "resv-ports", "unbuffered", "x11");

  private static final Map<Character, SbatchOption> BY_SHORT = new HashMap<>();

  static {
    for (SbatchOption o : values()) {
      if (o.shortName != '\0') {
        BY_SHORT.put(o.shortName, o);
      }
    }
  }

  private final String longName;
  private final char shortName;
  private final Arg arg;
  private final String notHonoured;
  private final String aliasOf;

  SbatchOption(String longName, char shortName, Arg arg, String notHonoured) {
    this(longName, shortName, arg, notHonoured, null);
  }

  SbatchOption(String longName, char shortName, Arg arg, String notHonoured, String aliasOf) {
    this.longName = longName;
    this.shortName = shortName;
    this.arg = arg;
    this.notHonoured = notHonoured;
    this.aliasOf = aliasOf;
  }

  /** Why Squall cannot honour this option, or null when it does. */
  public String notHonoured() {
    return notHonoured;
  }

  /**
   * The option this one is another name for ({@code --tasks-per-node} is {@code --ntasks-per-node}
   * in Slurm), or itself.
   */
  SbatchOption canonical() {
    return aliasOf == null ? this : valueOf(aliasOf);
  }

  public String longName() {
    return longName;
  }

  public Arg arg() {
    return arg;
  }

  static SbatchOption byShort(char c) {
    return BY_SHORT.get(c);
  }

  /**
   * Finds a long option by its full name or an unambiguous prefix, as getopt_long does.
   *
   * @throws IllegalArgumentException with the user-facing reason when unknown or ambiguous
   */
  static SbatchOption byLong(String name) {
    List<String> matches = new ArrayList<>();
    SbatchOption found = null;
    for (SbatchOption o : values()) {
      if (o.longName.equals(name)) {
        return o;
      }
      if (o.longName.startsWith(name)) {
        matches.add("--" + o.longName);
        found = o;
      }
    }
    if (matches.size() > 1) {
      throw new IllegalArgumentException("ambiguous option, could be " + String.join(", ", matches));
    }
    if (found == null) {
      throw new IllegalArgumentException("unrecognized option --" + name + (NOT_SBATCH.contains(name)
          ? " (an srun/salloc option: sbatch refuses it too)" : ""));
    }
    return found;
  }
}
