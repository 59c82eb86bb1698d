package io.squall.cli;

import io.squall.cli.format.SlurmTime;
import io.squall.cli.format.SlurmValues;
import io.squall.cli.format.TimeFormat;
import io.squall.cli.service.AccountingJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * sacct's {@code --format} fields with Slurm's names and default widths (negative: left-justified,
 * as in sacct's own table). GPUHours, RestartCount, Cost (US dollars), CapacityType and
 * InstanceType are Squall's additions.
 */
enum SacctField {
  JOBID("JobID", -12, (j, z) -> j.jobId()),
  JOBNAME("JobName", 10, (j, z) -> j.name()),
  PARTITION("Partition", 10, (j, z) -> j.partition()),
  ACCOUNT("Account", 10, (j, z) -> j.account()),
  USER("User", 9, (j, z) -> j.user()),
  ALLOCCPUS("AllocCPUS", 10, (j, z) -> ""), // the API has no CPU counts
  STATE("State", 10, (j, z) -> j.state()),
  EXITCODE("ExitCode", 8, (j, z) -> SlurmValues.exitCode(j.exitCode(), j.exitSignal())),
  SUBMIT("Submit", 19, (j, t) -> t.format(j.submitTime(), "Unknown")),
  START("Start", 19, (j, t) -> t.format(j.startTime(), "Unknown")),
  END("End", 19, (j, t) -> t.format(j.endTime(), "Unknown")),
  ELAPSED("Elapsed", 10, (j, z) -> SlurmTime.full(j.elapsedSeconds() == null ? 0 : j.elapsedSeconds())),
  ELAPSEDRAW("ElapsedRaw", 10, (j, z) -> Long.toString(j.elapsedSeconds() == null ? 0 : j.elapsedSeconds())),
  NNODES("NNodes", 8, (j, z) -> j.numNodes() == null ? "0" : j.numNodes().toString()),
  NODELIST("NodeList", 15, (j, z) -> j.nodes() == null || j.nodes().isEmpty() ? "None assigned" : j.nodes()),
  ALLOCTRES("AllocTRES", 10, (j, z) -> SlurmValues.tres(null, j.numGpus(), j.numNodes())),
  GPUHOURS("GPUHours", 10, (j, z) -> j.gpuHours() == null ? "" : String.format(Locale.ROOT, "%.2f", j.gpuHours())),
  RESTARTCOUNT("RestartCount", 12, (j, z) -> j.restartCount() == null ? "0" : j.restartCount().toString()),
  COST("Cost", 10, (j, z) -> j.costUsd() == null ? "" : String.format(Locale.ROOT, "%.2f", j.costUsd())),
  CAPACITYTYPE("CapacityType", 12, (j, z) -> j.capacityType() == null ? ""
      : j.capacityType().toLowerCase(Locale.ROOT).replace('_', '-')),
  INSTANCETYPE("InstanceType", 14, (j, z) -> j.instanceType() == null ? "" : j.instanceType());

  /** What sacct prints without {@code --format}. */
  static final List<SacctField> DEFAULT = List.of(JOBID, JOBNAME, PARTITION, ACCOUNT, ALLOCCPUS, STATE, EXITCODE);
  /** {@code --brief}. */
  static final List<SacctField> BRIEF = List.of(JOBID, STATE, EXITCODE);

  private final String title;
  private final int width;
  private final BiFunction<AccountingJob, TimeFormat, String> value;

  SacctField(String title, int width, BiFunction<AccountingJob, TimeFormat, String> value) {
    this.title = title;
    this.width = width;
    this.value = value;
  }

  String title() {
    return title;
  }

  /** Characters; negative means left-justified. */
  int width() {
    return width;
  }

  String value(AccountingJob job, TimeFormat time) {
    return value.apply(job, time);
  }

  /** By Slurm's name in any case; NCPUS is Slurm's other name for AllocCPUS. */
  static SacctField byName(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    if (n.equals("ncpus")) {
      return ALLOCCPUS;
    }
    for (SacctField f : values()) {
      if (f.title.toLowerCase(Locale.ROOT).equals(n)) {
        return f;
      }
    }
    List<String> names = new ArrayList<>();
    for (SacctField f : values()) {
      names.add(f.title);
    }
    throw new UsageException("Invalid field requested: \"" + name.strip() + "\" (fields: " + String.join(",", names) + ")");
  }
}
