package io.squall.api.store;

import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.util.Optional;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface InstanceRepository extends CrudRepository<InstanceRow, String> {
  Optional<InstanceRow> findByInstanceId(String instanceId);
}
