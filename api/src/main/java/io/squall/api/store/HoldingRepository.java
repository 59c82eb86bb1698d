package io.squall.api.store;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.time.Instant;
import java.util.List;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface HoldingRepository extends CrudRepository<HoldingRow, Long> {
  /** The job's holds not ended yet. */
  List<HoldingRow> findByJobKeyAndHeldToIsNull(String jobKey);

  /** Every hold the job has had, ended or not. */
  List<HoldingRow> findByJobKey(String jobKey);

  /** The holds that held their node some time in [{@code from}, {@code to}). */
  @Query("SELECT * FROM holdings WHERE held_from < :to AND (held_to IS NULL OR held_to > :from)")
  List<HoldingRow> findHeldBetween(Instant from, Instant to);
}
