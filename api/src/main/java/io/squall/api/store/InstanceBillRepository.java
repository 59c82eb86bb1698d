package io.squall.api.store;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.time.Instant;
import java.util.List;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface InstanceBillRepository extends CrudRepository<InstanceBillRow, String> {
  /** The node's instances still billing (one, unless a machine was replaced while no controller ran). */
  List<InstanceBillRow> findByNodeNameAndGoneIsNull(String nodeName);

  /** The instances that billed some time in [{@code from}, {@code to}). */
  @Query("SELECT * FROM instance_bills WHERE launched < :to AND (gone IS NULL OR gone > :from)")
  List<InstanceBillRow> findBillingBetween(Instant from, Instant to);
}
