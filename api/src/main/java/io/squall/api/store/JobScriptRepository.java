package io.squall.api.store;

import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.util.Collection;
import java.util.List;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface JobScriptRepository extends CrudRepository<JobScriptRow, Long> {
  List<JobScriptRow> findByJobIdInList(Collection<Long> jobIds);
}
