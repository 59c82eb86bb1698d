/**
 * Trace readers: a recorded job history, in one of the formats users have, read into
 * {@link io.squall.simulate.trace.TraceJob}s for the what-if simulator to replay through Squall's
 * own scheduler and elastic engine.
 *
 * <p>Contract. A {@link io.squall.simulate.trace.TraceReader} reads the text it is handed (it opens
 * no file, socket or thread) and gives a {@link io.squall.simulate.trace.Trace}: the jobs in order of
 * submission (ties keep the trace's order, so the same trace gives the same jobs), the rows skipped
 * as bad, and the jobs its format's documented rules leave out, counted by reason. Each job is what
 * the trace recorded: its elapsed time is the runtime replayed, its gang is nodes × GPUs per node
 * with the same GPUs on every node (a total that does not divide evenly is rounded up per node, never
 * down). A bad row fails the read with a {@link io.squall.simulate.trace.TraceException} whose message
 * names the source, the line and the field and says what was wrong
 * ({@code jobs.sacct line 14, field Elapsed: "1-2:3" is not a Slurm duration ([D-]HH:MM:SS)}); with
 * skipBadRows it is skipped and listed instead. An empty trace, a header that lacks a column the
 * format needs, and a trace whose every job was left out or skipped are errors that say what is
 * missing.
 *
 * <p>Formats ({@link io.squall.simulate.trace.TraceFormat}, each reader's documentation has the
 * details; {@link io.squall.simulate.trace.TraceOptions} says what the traces do not):
 * <ul>
 *   <li>{@code sacct}: {@code sacct -a -P -X --format=JobID,User,Account,Partition,Submit,Start,End,
 *       Elapsed,Timelimit,NNodes,AllocTRES,ReqTRES,State,QOS} output, columns by header name; GPUs from
 *       AllocTRES, else ReqTRES. Left out: job steps, jobs that never started, jobs still running.
 *   <li>{@code swf}: the Parallel Workloads Archive's Standard Workload Format; submit times from the
 *       header's UnixStartTime (else the Unix epoch); processors become GPUs ({@code procsPerGpu})
 *       packed on nodes of {@code nodeGpus}. Left out: jobs without a run time or processors.
 *   <li>{@code philly}: Microsoft Philly jobs as Squall bundles them (a JSON array of {@code id,
 *       num_gpus, runtime} in minutes, {@code submitted_time}), packed on nodes of {@code nodeGpus}.
 *   <li>{@code alibaba}: the task table of Alibaba's cluster-trace-gpu-v2020, one job per task,
 *       submitted at its launch. Left out: tasks that never started or never ended, tasks without GPUs.
 *   <li>{@code jsonl}: Squall's own format, one JSON object per line:
 *       <pre>{"id": "42", "submit": "2026-11-26T10:00:00Z", "user": "alice", "account": "vision",
 * "partition": "gpu", "qos": "normal", "nodes": 2, "gpus_per_node": 8, "runtime_s": 5400,
 * "time_limit_s": 7200, "state": "COMPLETED"}</pre>
 *       {@code submit} (ISO-8601 instant), {@code nodes} (at least 1) and {@code runtime_s} (seconds)
 *       are required; {@code gpus_per_node} is 0 when absent, {@code id} the line number; other
 *       fields may be absent or null; an unknown or repeated field is an error.
 * </ul>
 */
package io.squall.simulate.trace;
