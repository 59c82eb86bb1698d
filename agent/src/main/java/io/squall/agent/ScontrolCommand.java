package io.squall.agent;

import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Slurm's scontrol inside a job, reduced to what job scripts use: {@code scontrol show hostnames
 * [LIST]}, one host per line, LIST defaulting to SLURM_JOB_NODELIST. The cluster-wide scontrol
 * is the Squall CLI's.
 */
final class ScontrolCommand {
  static final String ONLY_HOSTNAMES =
      "only 'scontrol show hostnames' is available inside a job here; use bin/scontrol";

  private ScontrolCommand() {}

  static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
    boolean hostnames = args.size() >= 2 && args.size() <= 3
        && args.get(0).toLowerCase(Locale.ROOT).equals("show")
        && List.of("hostnames", "hostname").contains(args.get(1).toLowerCase(Locale.ROOT));
    if (!hostnames) {
      err.println("scontrol: error: " + ONLY_HOSTNAMES);
      return 1;
    }
    String list = args.size() == 3 ? args.get(2) : env.get("SLURM_JOB_NODELIST");
    if (list == null || list.isBlank()) {
      err.println("scontrol: error: no hostlist given and SLURM_JOB_NODELIST is not set");
      return 1;
    }
    try {
      for (String host : Hostlist.expand(list)) {
        out.println(host);
      }
      out.flush();
      return 0;
    } catch (HostlistException e) {
      err.println("scontrol: error: invalid hostlist '" + list + "': " + e.getMessage());
      return 1;
    }
  }
}
