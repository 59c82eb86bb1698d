package io.squall.core.model;

import io.squall.core.sbatch.Exclusive;
import io.squall.core.sbatch.JobRequest;
import java.time.Instant;
import java.util.List;

/**
 * A job as the scheduler sees it.
 *
 * <p>An array job that still has tasks waiting is one PENDING job whose {@code pendingTasks} lists
 * them (tasks become separate jobs only when they start, so a 1,000-task array costs one entry).
 * A task taken off it (to start, or to be held or cancelled alone) is its own job with {@code
 * key.taskId()} set and a job id of its own, as in Slurm.
 *
 * @param key the job, or the array task
 * @param jobId its own job id (Slurm's SLURM_JOB_ID): {@code key.id()} for a job and for an array's
 *     pending remainder; for an array task, the id it got when it left the remainder (the first task
 *     to leave gets the array's id, later ones new ids, see {@link #task})
 * @param partition the partition it runs in (running jobs); null while pending
 * @param pendingTasks for the waiting remainder of an array: task ids not started yet; else empty
 * @param allocation what the job holds on each node while it runs; empty otherwise
 * @param startTime when it started (running or finished jobs)
 * @param endTime when it ended (finished jobs)
 * @param preemptedAt when a running job was told it is being preempted; it then has the
 *     partition's grace time to end
 * @param exitCode the batch script's exit code (finished jobs)
 * @param notBefore a requeued job's restart backoff: it does not start before this. Unlike a
 *     {@code --begin} it does not set back the job's age (its priority); null when there is none
 * @param eligibleSince when it became eligible: the first scheduling cycle that found nothing but
 *     resources and priority holding it back (no hold, begin time reached, dependency met, within
 *     its partition's limits). Its age counts from then, as Slurm's accrue time. Null while it has
 *     not been, and again once held; a requeued job keeps it, and with it its age
 */
public record Job(JobKey key, long jobId, JobRequest request, String user, String account, String qos,
    Instant submitTime, JobState state, String partition, List<Integer> pendingTasks,
    List<GpuGrant> allocation, Instant startTime, Instant endTime, Instant preemptedAt,
    Integer exitCode, int restartCount, Instant notBefore, Instant eligibleSince) {
  public Job {
    pendingTasks = List.copyOf(pendingTasks);
    allocation = List.copyOf(allocation);
  }

  /** A newly submitted job (an array with all its tasks waiting, when the request has --array). */
  public static Job pending(long id, JobRequest request, String user, String account, String qos, Instant submitTime) {
    List<Integer> tasks = request.control().array() == null ? List.of() : request.control().array().taskIds();
    return new Job(JobKey.of(id), id, request, user, account, qos, submitTime, JobState.PENDING, null, tasks,
        List.of(), null, null, null, null, 0, null, null);
  }

  public boolean isArrayRemainder() {
    return !pendingTasks.isEmpty();
  }

  /**
   * One task of this array's pending remainder as a pending job of its own, with the job id
   * {@code ownId}. Slurm gives the first task to leave the remainder the array's own id (so
   * SLURM_ARRAY_JOB_ID is the first task's SLURM_JOB_ID) and each later one the next free id.
   * The remainder itself is left as it is ({@link #withPendingTasks} takes the task off it).
   */
  public Job task(int taskId, long ownId) {
    return new Job(JobKey.task(key.id(), taskId), ownId, request, user, account, qos, submitTime, JobState.PENDING,
        null, List.of(), List.of(), null, null, null, null, restartCount, notBefore, eligibleSince);
  }

  /** Whether no task has left this array's pending remainder yet: the next one to leave takes the array's id. */
  public boolean isWholeArray() {
    return request.control().array() != null && pendingTasks.size() == request.control().array().taskIds().size();
  }

  /** The job after it started on these nodes. */
  public Job started(JobKey startedKey, String inPartition, List<GpuGrant> grants, Instant at) {
    return new Job(startedKey, jobId, request, user, account, qos, submitTime, JobState.RUNNING, inPartition, List.of(),
        grants, at, null, null, null, restartCount, null, eligibleSince);
  }

  /**
   * The job allocated nodes that are still powering up: it holds them, and starts (with
   * {@link #started}) once all are up. Its time limit runs from then.
   */
  public Job configuring(JobKey startedKey, String inPartition, List<GpuGrant> grants) {
    return new Job(startedKey, jobId, request, user, account, qos, submitTime, JobState.CONFIGURING, inPartition, List.of(),
        grants, null, null, null, null, restartCount, null, eligibleSince);
  }

  /** The job after it ended in {@code finalState}. */
  public Job finished(JobState finalState, Integer code, Instant at) {
    return new Job(key, jobId, request, user, account, qos, submitTime, finalState, partition, List.of(), List.of(),
        startTime, at, null, code, restartCount, null, eligibleSince);
  }

  /** The job under another QOS ({@code scontrol update job QOS=}). */
  public Job withQos(String newQos) {
    return new Job(key, jobId, request, user, account, newQos, submitTime, state, partition, pendingTasks, allocation,
        startTime, endTime, preemptedAt, exitCode, restartCount, notBefore, eligibleSince);
  }

  /**
   * The job with its request changed after submission (held or released). A hold makes it
   * ineligible: it starts to age again only once released, as Slurm clears a held job's accrue
   * time (slurm.conf(5), PriorityFlags ACCRUE_ALWAYS: without it the age factor does not grow
   * while a job is ineligible "due to either dependencies, holds or begin time in the future").
   */
  public Job withRequest(JobRequest newRequest) {
    return new Job(key, jobId, newRequest, user, account, qos, submitTime, state, partition, pendingTasks, allocation,
        startTime, endTime, preemptedAt, exitCode, restartCount, notBefore,
        newRequest.control().hold() ? null : eligibleSince);
  }

  public Job withPendingTasks(List<Integer> remaining) {
    return new Job(key, jobId, request, user, account, qos, submitTime, state, partition, remaining, allocation, startTime,
        endTime, preemptedAt, exitCode, restartCount, notBefore, eligibleSince);
  }

  public Job preempting(Instant at) {
    return new Job(key, jobId, request, user, account, qos, submitTime, state, partition, pendingTasks, allocation,
        startTime, endTime, at, exitCode, restartCount, notBefore, eligibleSince);
  }

  /**
   * Back in the queue after preemption or a node failure: same id, one more restart, no backoff,
   * its age kept (Slurm starts a requeued job's age afresh; see the README on requeued jobs).
   */
  public Job requeued() {
    return new Job(key, jobId, request, user, account, qos, submitTime, JobState.PENDING, null, List.of(), List.of(),
        null, null, null, null, restartCount + 1, null, eligibleSince);
  }

  /** The pending job not started before {@code at} (a restart backoff). */
  public Job notBefore(Instant at) {
    return new Job(key, jobId, request, user, account, qos, submitTime, state, partition, pendingTasks, allocation,
        startTime, endTime, preemptedAt, exitCode, restartCount, at, eligibleSince);
  }

  /** The pending job eligible from {@code since}: its age counts from then. */
  public Job eligibleSince(Instant since) {
    return new Job(key, jobId, request, user, account, qos, submitTime, state, partition, pendingTasks, allocation,
        startTime, endTime, preemptedAt, exitCode, restartCount, notBefore, since);
  }

  /** Whether it takes its nodes whole ({@code --exclusive} in any form), as the scheduler places it. */
  public boolean exclusive() {
    return request.resources().exclusive() != Exclusive.NO;
  }

  public int gpusHeld() {
    int n = 0;
    for (GpuGrant g : allocation) {
      n += g.gpuIndices().size();
    }
    return n;
  }
}
