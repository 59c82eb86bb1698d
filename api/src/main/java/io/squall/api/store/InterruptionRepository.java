package io.squall.api.store;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.Pageable;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.time.Instant;
import java.util.List;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface InterruptionRepository extends CrudRepository<InterruptionRow, Long> {
  /** Those noticed at or after {@code from}, the newest first, at most the page's size (no count query). */
  List<InterruptionRow> findByNoticedAtGreaterThanEqualsOrderByIdDesc(Instant from, Pageable page);

  List<InterruptionRow> findByJobKeyOrderById(String jobKey);

  List<InterruptionRow> findByNodeNameOrderById(String nodeName);

  /** The interruptions noticed in [{@code from}, {@code to}), in the order they were recorded. */
  @Query("SELECT * FROM interruptions WHERE noticed_at >= :from AND noticed_at < :to ORDER BY id")
  List<InterruptionRow> findNoticedBetween(Instant from, Instant to);

  /** The interruptions noticed at or after {@code from}, in the order they were recorded. */
  @Query("SELECT * FROM interruptions WHERE noticed_at >= :from ORDER BY id")
  List<InterruptionRow> findNoticedSince(Instant from);
}
