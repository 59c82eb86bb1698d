package io.squall.cli;

import io.squall.cli.format.SlurmTime;
import io.squall.cli.format.SlurmValues;
import io.squall.cli.format.TimeFormat;
import io.squall.cli.service.AccountingJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * sacct's {@code --format} fields with Slurm's names and default widths (negative: left-justified,
 * as in sacct's own table, sacct.c's fields[]). GPUHours, RestartCount, Cost (US dollars),
 * CapacityType and InstanceType are Squall's additions. Slurm's other fields measure what Squall
 * does not record (job steps' CPU, memory, disk and energy use, CPU frequencies, UIDs and GIDs):
 * they are accepted and print empty ({@link #NOT_RECORDED}), as sacct prints a field it has no data
 * for, so a site's {@code SACCT_FORMAT} keeps working.
 */
enum SacctField {
  JOBID("JobID", -12, (j, z) -> j.jobId()),
  JOBIDRAW("JobIDRaw", -12, (j, z) -> j.jobIdRaw() == null ? j.jobId() : j.jobIdRaw().toString()),
  JOBNAME("JobName", 10, (j, z) -> j.name()),
  PARTITION("Partition", 10, (j, z) -> j.partition()),
  ACCOUNT("Account", 10, (j, z) -> j.account()),
  USER("User", 9, (j, z) -> j.user()),
  ALLOCCPUS("AllocCPUS", 10, (j, z) -> text(j.numCpus())),
  ALLOCNODES("AllocNodes", 10, (j, z) -> j.numNodes() == null ? "0" : j.numNodes().toString()),
  STATE("State", 10, (j, z) -> j.state()),
  EXITCODE("ExitCode", 8, (j, z) -> SlurmValues.exitCode(j.exitCode(), j.exitSignal())),
  SUBMIT("Submit", 19, (j, t) -> t.format(j.submitTime(), "Unknown")),
  START("Start", 19, (j, t) -> t.format(j.startTime(), "Unknown")),
  END("End", 19, (j, t) -> t.format(j.endTime(), "Unknown")),
  ELAPSED("Elapsed", 10, (j, z) -> SlurmTime.full(j.elapsedSeconds() == null ? 0 : j.elapsedSeconds())),
  ELAPSEDRAW("ElapsedRaw", 10, (j, z) -> Long.toString(j.elapsedSeconds() == null ? 0 : j.elapsedSeconds())),
  NNODES("NNodes", 8, (j, z) -> j.numNodes() == null ? "0" : j.numNodes().toString()),
  NODELIST("NodeList", 15, (j, z) -> j.nodes() == null || j.nodes().isEmpty() ? "None assigned" : j.nodes()),
  ALLOCTRES("AllocTRES", 10, (j, z) -> SlurmValues.tres(j.numCpus(), j.numGpus(), j.memoryMb(), j.numNodes())),
  REQTRES("ReqTRES", 10, (j, z) -> SlurmValues.tres(j.reqCpus(), j.reqGpus(), j.reqMemoryMb(), j.reqNodes())),
  REQNODES("ReqNodes", 8, (j, z) -> text(j.reqNodes())),
  REQCPUS("ReqCPUS", 8, (j, z) -> text(j.reqCpus())),
  NTASKS("NTasks", 8, (j, z) -> text(j.numTasks())),
  CPUTIME("CPUTime", 10, (j, z) -> j.numCpus() == null ? "" : SlurmTime.full(cpuSeconds(j))),
  CPUTIMERAW("CPUTimeRAW", 10, (j, z) -> j.numCpus() == null ? "" : Long.toString(cpuSeconds(j))),
  TIMELIMIT("Timelimit", 10, (j, z) -> SlurmTime.fullLimit(j.timeLimitMinutes())),
  TIMELIMITRAW("TimelimitRaw", 10, (j, z) -> j.timeLimitMinutes() == null ? "UNLIMITED"
      : j.timeLimitMinutes().toString()),
  ELIGIBLE("Eligible", 19, (j, t) -> t.format(j.eligibleTime(), "Unknown")),
  PLANNED("Planned", 10, (j, z) -> planned(j)),
  SUSPENDED("Suspended", 10, (j, z) -> SlurmTime.full(0)), // Squall never suspends a job
  QOS("QOS", 10, (j, z) -> j.qos()),
  CLUSTER("Cluster", 10, (j, z) -> j.cluster()),
  WORKDIR("WorkDir", 20, (j, z) -> j.workDir()),
  REASON("Reason", 22, (j, z) -> j.reason()),
  COMMENT("Comment", 14, (j, z) -> j.comment()),
  CONSTRAINTS("Constraints", 19, (j, z) -> j.constraints()),
  RESERVATION("Reservation", 20, (j, z) -> j.reservation()),
  GPUHOURS("GPUHours", 10, (j, z) -> j.gpuHours() == null ? "" : String.format(Locale.ROOT, "%.2f", j.gpuHours())),
  RESTARTCOUNT("RestartCount", 12, (j, z) -> j.restartCount() == null ? "0" : j.restartCount().toString()),
  COST("Cost", 10, (j, z) -> j.costUsd() == null ? "" : String.format(Locale.ROOT, "%.2f", j.costUsd())),
  CAPACITYTYPE("CapacityType", 12, (j, z) -> j.capacityType() == null ? ""
      : j.capacityType().toLowerCase(Locale.ROOT).replace('_', '-')),
  INSTANCETYPE("InstanceType", 14, (j, z) -> j.instanceType() == null ? "" : j.instanceType());

  /** Slurm's standard fields Squall records nothing for, with sacct's widths: they print empty. */
  static final Map<String, Integer> NOT_RECORDED = notRecorded();

  /** What sacct prints without {@code --format}. */
  static final List<SacctField> DEFAULT = List.of(JOBID, JOBNAME, PARTITION, ACCOUNT, ALLOCCPUS, STATE, EXITCODE);
  /** {@code --brief}. */
  static final List<SacctField> BRIEF = List.of(JOBID, STATE, EXITCODE);
  /** sacct's {@code --long} fields, as sacct.h lists them (step statistics print empty here). */
  static final String LONG = "jobid,jobidraw,jobname,partition,maxvmsize,maxvmsizenode,maxvmsizetask,avevmsize,"
      + "maxrss,maxrssnode,maxrsstask,averss,maxpages,maxpagesnode,maxpagestask,avepages,mincpu,mincpunode,"
      + "mincputask,avecpu,ntasks,alloccpus,elapsed,state,exitcode,avecpufreq,reqcpufreqmin,reqcpufreqmax,"
      + "reqcpufreqgov,reqmem,consumedenergy,maxdiskread,maxdiskreadnode,maxdiskreadtask,avediskread,maxdiskwrite,"
      + "maxdiskwritenode,maxdiskwritetask,avediskwrite,reqtres,alloctres,tresusageinave,tresusageinmax,"
      + "tresusageinmaxn,tresusageinmaxt,tresusageinmin,tresusageinminn,tresusageinmint,tresusageintot,"
      + "tresusageoutmax,tresusageoutmaxn,tresusageoutmaxt,tresusageoutave,tresusageouttot";

  /** Every field name {@code --format} takes, recorded or not, in alphabetical order (case aside). */
  static List<String> allTitles() {
    List<String> titles = new ArrayList<>();
    for (SacctField f : values()) {
      titles.add(f.title);
    }
    titles.addAll(NOT_RECORDED.keySet());
    titles.sort(String.CASE_INSENSITIVE_ORDER);
    return titles;
  }

  /** {@code sacct -e}: the field names, several to a line in columns, as sacct prints them. */
  static List<String> helpFormat() {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String title : allTitles()) {
      if (line.length() >= 4 * 20) {
        lines.add(line.toString().stripTrailing());
        line.setLength(0);
      }
      line.append(String.format(Locale.ROOT, "%-20s", title));
    }
    if (line.length() > 0) {
      lines.add(line.toString().stripTrailing());
    }
    return lines;
  }

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

  /**
   * The title of a field by Slurm's name in any case: one of these, or one of {@link #NOT_RECORDED};
   * NCPUS is Slurm's other name for AllocCPUS, Reserved (before Slurm 23.02) for Planned.
   *
   * @throws UsageException {@code Invalid field requested}, naming the fields
   */
  static String title(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    if (n.equals("ncpus")) {
      return ALLOCCPUS.title;
    }
    if (n.equals("reserved")) {
      return PLANNED.title;
    }
    for (String title : allTitles()) {
      if (title.toLowerCase(Locale.ROOT).equals(n)) {
        return title;
      }
    }
    // As sacct: a name may be the start of one, the first in alphabetical order ("jobn" is JobName,
    // "tresusageinmaxn" TRESUsageInMaxNode, as sacct's own --long list writes it).
    if (!n.isEmpty()) {
      for (String title : allTitles()) {
        if (title.toLowerCase(Locale.ROOT).startsWith(n)) {
          return title;
        }
      }
    }
    List<String> names = new ArrayList<>();
    for (SacctField f : values()) {
      names.add(f.title);
    }
    throw new UsageException("Invalid field requested: \"" + name.strip() + "\" (fields: " + String.join(",", names)
        + "; Slurm's " + String.join(",", NOT_RECORDED.keySet()) + " print empty)");
  }

  /** sacct's width of a field by its title; negative means left-justified. */
  static int width(String title) {
    for (SacctField f : values()) {
      if (f.title.equals(title)) {
        return f.width;
      }
    }
    return NOT_RECORDED.get(title);
  }

  private static String text(Object value) {
    return value == null ? "" : value.toString();
  }

  private static long cpuSeconds(AccountingJob j) {
    return (j.elapsedSeconds() == null ? 0 : j.elapsedSeconds()) * j.numCpus();
  }

  /** sacct's Planned (Reserved before 23.02): from eligible to start, the time the job waited to run. */
  private static String planned(AccountingJob j) {
    if (j.eligibleTime() == null || j.startTime() == null) {
      return "";
    }
    return SlurmTime.full(Math.max(0, Duration.between(j.eligibleTime(), j.startTime()).toSeconds()));
  }

  private static Map<String, Integer> notRecorded() {
    Map<String, Integer> m = new LinkedHashMap<>();
    Object[] table = {
        "AssocID", 10, "AveCPU", 10, "AveCPUFreq", 10, "AveDiskRead", 14, "AveDiskWrite", 14, "AvePages", 10,
        "AveRSS", 10, "AveVMSize", 10, "BlockID", 16, "ConsumedEnergy", 14, "ConsumedEnergyRaw", 17,
        "DerivedExitCode", 15, "Flags", 19, "GID", 6, "Group", 9, "Layout", 9, "MaxDiskRead", 12,
        "MaxDiskReadNode", 15, "MaxDiskReadTask", 15, "MaxDiskWrite", 12, "MaxDiskWriteNode", 16,
        "MaxDiskWriteTask", 16, "MaxPages", 8, "MaxPagesNode", 12, "MaxPagesTask", 14, "MaxRSS", 10,
        "MaxRSSNode", 10, "MaxRSSTask", 10, "MaxVMSize", 10, "MaxVMSizeNode", 14, "MaxVMSizeTask", 14,
        "McsLabel", 12, "MinCPU", 10, "MinCPUNode", 10, "MinCPUTask", 10, "Priority", 10, "QOSRAW", 6,
        "ReqCPUFreq", 10, "ReqCPUFreqMin", 13, "ReqCPUFreqMax", 13, "ReqCPUFreqGov", 13, "ReqGRES", 12,
        "ReqMem", 10, "ReservationId", 8, "ResvCPU", 10, "ResvCPURAW", 10, "SystemCPU", 10, "SystemComment", 15,
        "TotalCPU", 10, "TRESUsageInAve", 14, "TRESUsageInMax", 14, "TRESUsageInMaxNode", 18,
        "TRESUsageInMaxTask", 18, "TRESUsageInMin", 14, "TRESUsageInMinNode", 18, "TRESUsageInMinTask", 18,
        "TRESUsageInTot", 14, "TRESUsageOutAve", 15, "TRESUsageOutMax", 15, "TRESUsageOutMaxNode", 19,
        "TRESUsageOutMaxTask", 19, "TRESUsageOutMin", 15, "TRESUsageOutMinNode", 19, "TRESUsageOutMinTask", 19,
        "TRESUsageOutTot", 15, "UID", 6, "UserCPU", 10, "WCKey", 10, "WCKeyID", 10};
    for (int i = 0; i < table.length; i += 2) {
      m.put((String) table[i], (Integer) table[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(m);
  }
}
