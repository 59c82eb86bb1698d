package io.squall.simulate.trace;

import java.io.IOException;
import java.io.Reader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Alibaba's PAI GPU cluster trace (cluster-trace-gpu-v2020, Weng et al., NSDI '22): its task table
 * {@code pai_task_table.csv}, comma-separated without a header (the trace ships the column names
 * apart, in {@code pai_task_table.header}; a first line equal to them is passed over), columns
 * {@code job_name, task_name, inst_num, status, start_time, end_time, plan_cpu, plan_mem, plan_gpu,
 * gpu_type}.
 *
 * <p>One job per task: {@code inst_num} nodes (instances) of {@code ceil(plan_gpu / 100)} GPUs
 * each ({@code plan_gpu} is a percentage of one GPU, 50 is half of one; Squall gives whole GPUs, so
 * a share becomes one). The job's id is {@code job_name/task_name}, its state {@code status}, its
 * runtime {@code end_time - start_time}. The task table has no submission time, so submit is
 * {@code start_time}, the task's launch (the job table's {@code start_time} is the job's
 * submission; joining the two is left to a later reader): the replay starts each task when it
 * started, not when it was asked for. Times are seconds from an origin the trace shifted to hide
 * the real dates, read as seconds since the Unix epoch. User, account, partition, QOS and time
 * limit are not in the table: null.
 *
 * <p>Left out, and counted: tasks that never started ({@code start_time} empty: Waiting), tasks
 * with no end ({@code end_time} empty: still Running when the trace ended, so their runtime is
 * unknown), and tasks that asked for no GPU ({@code plan_gpu} empty or 0: parameter servers and
 * other CPU work, which Squall's GPU nodes would not run).
 */
public final class AlibabaReader implements TraceReader {
  static final List<String> COLUMNS = List.of("job_name", "task_name", "inst_num", "status", "start_time",
      "end_time", "plan_cpu", "plan_mem", "plan_gpu", "gpu_type");
  private static final String HEADER = String.join(",", COLUMNS);

  @Override
  public Trace read(Reader in, String source, boolean skipBadRows) throws IOException {
    TraceLines lines = new TraceLines(in);
    TraceCollector out = new TraceCollector(source, skipBadRows);
    for (String line = lines.next(); line != null; line = lines.next()) {
      if (line.isBlank() || (lines.number() == 1 && line.strip().equals(HEADER))) {
        continue;
      }
      try {
        task(new RowFields(source, lines.number()), line.split(",", -1), out);
      } catch (TraceException e) {
        out.bad(e);
      }
    }
    return out.trace();
  }

  private static void task(RowFields row, String[] f, TraceCollector out) {
    if (f.length != COLUMNS.size()) {
      throw row.bad("has " + f.length + " fields, pai_task_table has " + COLUMNS.size() + " (" + HEADER + ")");
    }
    String job = f[0].strip();
    if (job.isEmpty()) {
      throw row.bad("job_name", "is empty");
    }
    if (f[4].isBlank()) {
      out.leaveOut("never started");
      return;
    }
    if (f[5].isBlank()) {
      out.leaveOut("no end time");
      return;
    }
    double planGpu = f[8].isBlank() ? 0 : row.decimal("plan_gpu", f[8].strip());
    if (planGpu < 0) {
      throw row.bad("plan_gpu", RowFields.quoted(f[8]) + " is negative");
    }
    if (planGpu == 0) {
      out.leaveOut("no GPUs");
      return;
    }
    double instances = row.decimal("inst_num", f[2].strip());
    if (instances < 1 || instances != Math.rint(instances) || instances > Integer.MAX_VALUE) {
      throw row.bad("inst_num", RowFields.quoted(f[2]) + " is not a whole number of instances, at least 1");
    }
    double start = row.decimal("start_time", f[4].strip());
    double end = row.decimal("end_time", f[5].strip());
    if (end < start) {
      throw row.bad("end_time", RowFields.quoted(f[5]) + " is before start_time " + RowFields.quoted(f[4]));
    }
    Instant submit = Instant.EPOCH.plus(row.seconds("start_time", start));
    Duration runtime = row.seconds("end_time", end - start);
    out.add(new TraceJob(job + "/" + f[1].strip(), submit, null, null, null, null, (int) instances,
        (int) Math.ceil(planGpu / 100), runtime, null, RowFields.orNull(f[3])));
  }
}
