/**
 * The node agent: one per node, speaking docs/agent-protocol.md with the controller and with
 * srun. Pure JDK (plus Jackson): {@code com.sun.net.httpserver} serves, {@code java.net.http}
 * calls.
 *
 * <p>Contracts:
 *
 * <ul>
 *   <li><b>Start order does not matter.</b> {@link io.squall.agent.AgentMain} listens at once
 *       and registers with backoff until the controller answers; a heartbeat answered 404
 *       makes it register again, reporting the jobs it still runs.
 *   <li><b>Nothing reported is lost while the agent lives.</b> Exit events wait in an outbox
 *       until the controller answers 200; output files are shipped by byte offset, resending
 *       from the controller's {@code next_offset}, and a script's remaining output is shipped
 *       before its exit is reported whenever the controller is reachable.
 *   <li><b>Launch is idempotent per job key</b> until {@code DELETE /jobs/{job}}; delete is
 *       idempotent. Handlers of the controller's calls never call the controller back on the
 *       request's thread; a job's checkpoint registration is relayed on its own request's thread,
 *       since the job's tool, not the controller, waits for it.
 *   <li><b>A job's environment is the controller's</b>, plus only what the node knows
 *       (CUDA_VISIBLE_DEVICES, SLURMD_NODENAME, the tool directory on PATH ...); the agent's own
 *       environment does not leak in, except HOME, USER and LANG when the job lacks them.
 *   <li><b>Every process of a job can be reached.</b> Scripts and tasks run in sessions of their
 *       own (setsid); signals go to each process tree, and SIGKILL also to the process groups,
 *       so orphans die too. When a script or task ends, what is left of its group is killed,
 *       as Slurm does at the end of a job or step. Stopping the agent kills all its jobs.
 *   <li><b>Interruption notices are reported, not acted on.</b> With {@code --interruptions
 *       aws|gcp} the agent polls its machine's metadata service every second ({@link
 *       io.squall.spot.metadata}) and posts each notice to the controller, resending until it is
 *       taken; the controller decides what the jobs get (checkpoint signal, requeue).
 *   <li><b>Tools.</b> The agent writes {@code bin/srun}, {@code bin/scontrol} and {@code
 *       bin/squall} wrappers that run {@link io.squall.agent.Tools} on the agent's own JVM and
 *       class path; srun speaks to the agents, and {@code squall checkpoint register} to its own
 *       node's agent (which relays it to the controller), with the job's credential.
 *   <li><b>Signals for the batch shell alone</b> ({@code batch_only}, Slurm's {@code
 *       --signal=B:}) reach the script's own process, not its children nor srun tasks.
 * </ul>
 */
package io.squall.agent;
