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
 * names the source, the line and the field and says what was wrong; with skipBadRows it is skipped
 * and listed instead. An empty trace, a header that lacks a column the format needs, and a trace
 * whose every job was left out or skipped are errors that say what is missing.
 */
package io.squall.simulate.trace;
