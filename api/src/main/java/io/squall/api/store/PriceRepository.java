package io.squall.api.store;

import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import io.squall.core.money.PriceSeries;
import java.util.List;
import java.util.Optional;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface PriceRepository extends CrudRepository<PriceRow, Long> {
  List<PriceRow> findAllOrderByOfferingAscAndValidFromAsc();

  List<PriceRow> findByOfferingOrderByValidFromAsc(String offering);

  /** The prices in force so far, as stored: what the fleet starts from after a restart, and what cost is computed at. */
  default PriceSeries series() {
    return PriceSeries.of(findAllOrderByOfferingAscAndValidFromAsc().stream().map(PriceRow::point).toList());
  }

  /** The offering's price in force (its end is not known yet). */
  Optional<PriceRow> findByOfferingAndValidToIsNull(String offering);
}
