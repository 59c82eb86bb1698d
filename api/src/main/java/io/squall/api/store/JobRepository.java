package io.squall.api.store;

import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;

/** Jobs; updates check {@link JobRow#version()}. */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface JobRepository extends CrudRepository<JobRow, String> {
  @io.micronaut.core.annotation.Nullable
  Long findMaxJobId();
}
