package io.squall.cli;

import io.squall.cli.format.LineTemplate;
import io.squall.cli.format.Table;
import io.squall.cli.format.TimeFormat;
import io.squall.cli.service.JobInfo;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * squeue's lines for one {@code -o} format: what the CLI prints, and what the service renders
 * when squeue asks it to ({@code GET /v1/jobs?format=}), with this same code. Immutable.
 */
public final class SqueueLines {
  private final Table<JobInfo> table;
  private final Set<String> fields;

  private SqueueLines(Table<JobInfo> table, Set<String> fields) {
    this.table = table;
    this.fields = fields;
  }

  /**
   * @param format squeue's {@code -o} format ({@code %.18i %.9P ..})
   * @param time how the time columns print ({@code SLURM_TIME_FORMAT}, in the caller's zone)
   * @throws IllegalArgumentException when squeue refuses the format; the message says why
   */
  public static SqueueLines of(String format, TimeFormat time) {
    Map<String, SqueueColumns.Spec> columns = SqueueColumns.of(time);
    LineTemplate template = LineTemplate.percent(format, LineTemplate.letters(columns.keySet()));
    Set<String> fields = new LinkedHashSet<>(List.of("job_id")); // every job summary's, and JobInfo's
    fields.addAll(SqueueColumns.fieldsRead(columns, template));
    return new SqueueLines(new Table<>(template, SqueueColumns.columns(columns)), fields);
  }

  /** The job summary fields the lines read ({@code GET /v1/jobs}' names), {@code job_id} first. */
  public Set<String> fields() {
    return fields;
  }

  /**
   * Whether a field is fitted to its widest value: then no line can be made before every job is
   * known ({@link Table#fitted}), and {@link #line} does not widen it.
   */
  public boolean fitted() {
    return table.fitted();
  }

  public String header() {
    return table.header();
  }

  /** One job's line. */
  public String line(JobInfo job) {
    return table.line(job);
  }

  /** One job's line from its summary's plain values, as the service builds it ({@link #fields} at least). */
  public String line(Map<String, Object> summary) {
    return table.line(JobInfo.fromSummary(summary));
  }

  /** Every job's line, fitted fields widened to their widest; the header first when asked for. */
  List<String> lines(List<JobInfo> jobs, boolean header) {
    return table.lines(jobs, header, false);
  }
}
