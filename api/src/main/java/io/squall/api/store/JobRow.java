package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import io.micronaut.data.annotation.MappedProperty;
import io.micronaut.data.annotation.Version;
import java.time.Instant;

/**
 * One row of {@code jobs}. {@code version} is checked on every update, so two controllers (or a
 * stale plan) can never both start the same job.
 *
 * @param jobId the job's id, or its array's for a task
 * @param ownJobId the job's own id (SLURM_JOB_ID): an array task's own, else {@code jobId}
 * @param pendingTasks array task ids still waiting, as Slurm writes them ({@code 1-9,12}); empty otherwise
 * @param allocation {@code node:0,1;node2:0,1} with each node's CPUs and memory, see {@link StoreText}
 * @param ending the final state a job being stopped will get (CANCELLED, TIMEOUT); null otherwise
 * @param notBefore a requeued job's restart backoff ({@code Job#notBefore}); null when there is none
 * @param eligibleSince when the job became eligible, its age counting from then ({@code Job#eligibleSince});
 *     null while it has not, or is held
 * @param limitSignalled whether the current run got its {@code --signal} before its time limit
 * @param updates the sbatch options {@code scontrol update} gave the job, as JSON; null when none
 */
@MappedEntity("jobs")
public record JobRow(
    @Id String jobKey,
    long jobId,
    @Nullable Integer taskId,
    long ownJobId,
    @MappedProperty("user_name") String user,
    String account,
    String qos,
    String state,
    boolean held,
    @Nullable @MappedProperty("partition_name") String partition,
    String pendingTasks,
    String allocation,
    @Nullable Instant startTime,
    @Nullable Instant endTime,
    @Nullable Integer exitCode,
    @Nullable Integer exitSignal,
    int restartCount,
    @Nullable String ending,
    @Nullable String credential,
    @Nullable Instant notBefore,
    @Nullable Instant eligibleSince,
    @Version Long version,
    boolean limitSignalled,
    @Nullable String updates) {}
