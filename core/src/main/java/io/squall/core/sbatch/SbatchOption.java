package io.squall.core.sbatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The sbatch options Squall understands, with Slurm's long names, short letters and arguments. */
public enum SbatchOption {
  ACCOUNT("account", 'A', Arg.REQUIRED),
  ARRAY("array", 'a', Arg.REQUIRED),
  BEGIN("begin", 'b', Arg.REQUIRED),
  CHDIR("chdir", 'D', Arg.REQUIRED),
  COMMENT("comment", '\0', Arg.REQUIRED),
  CONSTRAINT("constraint", 'C', Arg.REQUIRED),
  CONTAINER_IMAGE("container-image", '\0', Arg.REQUIRED),
  CPUS_PER_GPU("cpus-per-gpu", '\0', Arg.REQUIRED),
  CPUS_PER_TASK("cpus-per-task", 'c', Arg.REQUIRED),
  DEADLINE("deadline", '\0', Arg.REQUIRED),
  DEPENDENCY("dependency", 'd', Arg.REQUIRED),
  DISTRIBUTION("distribution", 'm', Arg.REQUIRED),
  ERROR("error", 'e', Arg.REQUIRED),
  EXCLUDE("exclude", 'x', Arg.REQUIRED),
  EXCLUSIVE("exclusive", '\0', Arg.OPTIONAL),
  EXPORT("export", '\0', Arg.REQUIRED),
  GPU_BIND("gpu-bind", '\0', Arg.REQUIRED),
  GPUS("gpus", 'G', Arg.REQUIRED),
  GPUS_PER_NODE("gpus-per-node", '\0', Arg.REQUIRED),
  GPUS_PER_TASK("gpus-per-task", '\0', Arg.REQUIRED),
  GRES("gres", '\0', Arg.REQUIRED),
  HINT("hint", '\0', Arg.REQUIRED),
  HOLD("hold", 'H', Arg.NONE),
  INPUT("input", 'i', Arg.REQUIRED),
  JOB_NAME("job-name", 'J', Arg.REQUIRED),
  MAIL_TYPE("mail-type", '\0', Arg.REQUIRED),
  MAIL_USER("mail-user", '\0', Arg.REQUIRED),
  MEM("mem", '\0', Arg.REQUIRED),
  MEM_PER_CPU("mem-per-cpu", '\0', Arg.REQUIRED),
  MEM_PER_GPU("mem-per-gpu", '\0', Arg.REQUIRED),
  NICE("nice", '\0', Arg.OPTIONAL),
  NO_REQUEUE("no-requeue", '\0', Arg.NONE),
  NODELIST("nodelist", 'w', Arg.REQUIRED),
  NODES("nodes", 'N', Arg.REQUIRED),
  NTASKS("ntasks", 'n', Arg.REQUIRED),
  NTASKS_PER_GPU("ntasks-per-gpu", '\0', Arg.REQUIRED),
  NTASKS_PER_NODE("ntasks-per-node", '\0', Arg.REQUIRED),
  OPEN_MODE("open-mode", '\0', Arg.REQUIRED),
  OUTPUT("output", 'o', Arg.REQUIRED),
  PARTITION("partition", 'p', Arg.REQUIRED),
  PRIORITY("priority", '\0', Arg.REQUIRED),
  QOS("qos", 'q', Arg.REQUIRED),
  REQUEUE("requeue", '\0', Arg.NONE),
  RESERVATION("reservation", '\0', Arg.REQUIRED),
  SIGNAL("signal", '\0', Arg.REQUIRED),
  SWITCHES("switches", '\0', Arg.REQUIRED),
  TIME("time", 't', Arg.REQUIRED),
  TIME_MIN("time-min", '\0', Arg.REQUIRED),
  WAIT_ALL_NODES("wait-all-nodes", '\0', Arg.REQUIRED);

  /** Whether the option takes a value: getopt's no_argument, required_argument, optional_argument. */
  public enum Arg { NONE, REQUIRED, OPTIONAL }

  /**
   * Real sbatch options Squall does not implement. They take part in prefix matching (so an
   * abbreviation is ambiguous exactly when it is in Slurm) and get a clearer error than
   * "unrecognized".
   */
  static final List<String> SLURM_ONLY = List.of(
      "acctg-freq", "batch", "bb", "bbf", "burst-buffer", "clusters", "cluster-constraint",
      "container", "core-spec", "cores-per-socket", "cpu-freq", "delay-boot", "extra",
      "export-file", "extra-node-info", "get-user-env", "gpus-per-socket", "help", "gid", "gpu-freq", "gres-flags", "ignore-pbs",
      "immediate", "kill-on-invalid-dep", "licenses", "mcs-label", "mem-bind", "mincpus",
      "network", "no-kill", "nodefile", "ntasks-per-core", "ntasks-per-socket", "overcommit",
      "oversubscribe", "parsable", "power", "prefer", "profile", "propagate", "quiet", "reboot",
      "resv-ports", "sockets-per-node", "spread-job", "test-only", "thread-spec",
      "threads-per-core", "tmp", "tres-per-task", "uid", "usage", "use-min-nodes", "verbose", "version", "wait",
      "wckey", "wrap");

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

  SbatchOption(String longName, char shortName, Arg arg) {
    this.longName = longName;
    this.shortName = shortName;
    this.arg = arg;
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
    for (String other : SLURM_ONLY) {
      if (other.equals(name)) {
        throw new IllegalArgumentException("--" + name + " is an sbatch option Squall does not support");
      }
      if (other.startsWith(name)) {
        matches.add("--" + other);
      }
    }
    if (matches.size() > 1) {
      throw new IllegalArgumentException("ambiguous option, could be " + String.join(", ", matches));
    }
    if (found == null) {
      if (matches.size() == 1) {
        throw new IllegalArgumentException(matches.get(0) + " is an sbatch option Squall does not support");
      }
      throw new IllegalArgumentException("unrecognized option --" + name);
    }
    return found;
  }
}
