package io.squall.simulate.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * No rows of the real task table could be found to bundle (the trace is downloaded from Alibaba's
 * storage, not kept in a repository), so these rows are written here in its syntax; the first is
 * the example row of the trace's README.
 */
class TraceAlibabaTest {
  private static final AlibabaReader ALIBABA = new AlibabaReader();
  /** cluster-trace-gpu-v2020/README.md, "pai_task_table": its example entry, column by column. */
  private static final String README_EXAMPLE =
      "4f057009a5d481acec67b088,tensorflow,1.0,Terminated,1739162.0,1739200.0,600.0,29.296875,50.0,MISC";

  private static Trace read(String text, boolean skipBadRows) {
    return Samples.read(ALIBABA, "pai_task_table.csv", text, skipBadRows);
  }

  @Test
  void readsOneJobPerTaskWithWholeGpusPerInstance() {
    Trace trace = read(README_EXAMPLE + "\n"
        + "a1b2c3d4e5f6a1b2c3d4e5f6,worker,8.0,Failed,1739100.5,1742700.5,1200.0,58.59375,200.0,V100\n", false);

    assertThat(trace.jobs()).containsExactly(
        new TraceJob("a1b2c3d4e5f6a1b2c3d4e5f6/worker", Instant.ofEpochMilli(1_739_100_500), null, null, null, null,
            8, 2, Duration.ofHours(1), null, "Failed"),
        // half a GPU becomes a whole one; 38 s from launch to end
        new TraceJob("4f057009a5d481acec67b088/tensorflow", Instant.ofEpochSecond(1_739_162), null, null, null, null,
            1, 1, Duration.ofSeconds(38), null, "Terminated"));
  }

  @Test
  void passesOverTheHeaderTheTraceShipsApartAndLeavesOutTasksThatDidNotRunOnGpus() {
    Trace trace = read("""
        job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type
        6b1d4e0c06ecc0a1ab6f5b8f,worker,1.0,Terminated,100.0,400.0,600.0,29.296875,100.0,T4
        6b1d4e0c06ecc0a1ab6f5b8f,ps,1.0,Terminated,100.0,400.0,400.0,10.0,,
        7c2e5f1d17fdd1b2bc7a6c90,worker,1.0,Waiting,,,600.0,29.296875,100.0,
        8d3f6a2e28aee2c3cd8b7da1,worker,2.0,Running,500.0,,600.0,29.296875,100.0,P100
        9e4a7b3f39bff3d4de9c8eb2,evaluator,1.0,Terminated,200.0,260.0,200.0,5.0,0.0,MISC
        """, false);

    assertThat(trace.jobs()).extracting(TraceJob::id, TraceJob::gpus)
        .containsExactly(tuple("6b1d4e0c06ecc0a1ab6f5b8f/worker", 1));
    assertThat(trace.leftOut()).containsExactly(Map.entry("never started", 1), Map.entry("no GPUs", 2),
        Map.entry("no end time", 1));
  }

  @Test
  void aBadRowNamesItsLineAndFieldAndCanBeSkipped() {
    String text = README_EXAMPLE + "\n"
        + "a,worker,1.5,Terminated,100.0,200.0,600.0,29.3,100.0,T4\n"
        + "b,worker,1.0,Terminated,100.0,50.0,600.0,29.3,100.0,T4\n"
        + "c,worker,1.0,Terminated,100.0,200.0,600.0,29.3,lots,T4\n"
        + "d,worker,1.0,Terminated,100.0,200.0\n";

    assertThatThrownBy(() -> read(text, false)).isInstanceOf(TraceException.class)
        .hasMessage("pai_task_table.csv line 2, field inst_num: \"1.5\" is not a whole number of instances, at least 1");

    Trace trace = read(text, true);
    assertThat(trace.jobs()).hasSize(1);
    assertThat(trace.skipped()).containsExactly(
        new SkippedRow(2, "inst_num", "\"1.5\" is not a whole number of instances, at least 1"),
        new SkippedRow(3, "end_time", "\"50.0\" is before start_time \"100.0\""),
        new SkippedRow(4, "plan_gpu", "\"lots\" is not a number"),
        new SkippedRow(5, null, "has 6 fields, pai_task_table has 10 (job_name,task_name,inst_num,status,"
            + "start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type)"));
  }

  @Test
  void anEmptyTableIsAnError() {
    assertThatThrownBy(() -> read("", false)).hasMessage("pai_task_table.csv: no jobs in it");
  }
}
