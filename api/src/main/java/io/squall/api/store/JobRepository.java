package io.squall.api.store;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/** Jobs; updates check {@link JobRow#version()}. */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface JobRepository extends CrudRepository<JobRow, String> {
  /** The highest job id given out: a task's own id is never below its array's. */
  @io.micronaut.core.annotation.Nullable
  Long findMaxOwnJobId();

  /** Jobs not finished (a finished job always has its end time) and those that ended at or after {@code cutoff}. */
  @Query("SELECT * FROM jobs WHERE end_time IS NULL OR end_time >= :cutoff")
  List<JobRow> findUnfinishedOrEndedSince(Instant cutoff);

  List<JobRow> findByJobIdInList(Collection<Long> jobIds);

  List<JobRow> findByJobKeyInList(Collection<String> jobKeys);

  List<JobRow> findByOwnJobIdInList(Collection<Long> ownJobIds);

  /** Up to {@code limit} jobs that have started, after {@code afterKey} in key order: history read in pages. */
  @Query("SELECT * FROM jobs WHERE job_key > :afterKey AND start_time IS NOT NULL ORDER BY job_key LIMIT :limit")
  List<JobRow> findStartedAfterKey(String afterKey, int limit);

  /** Finished jobs that ended at or after {@code from} and started by {@code to} (sacct's window). */
  @Query("SELECT * FROM jobs WHERE end_time >= :from AND start_time <= :to")
  List<JobRow> findEndedInWindow(Instant from, Instant to);

  /** Jobs running now (started, not ended) that started by {@code to}. */
  @Query("SELECT * FROM jobs WHERE end_time IS NULL AND start_time <= :to")
  List<JobRow> findRunningSince(Instant to);
}
