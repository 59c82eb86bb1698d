package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import io.squall.core.money.PricePoint;
import java.time.Instant;

/** A price of an offering while it was in force ({@code validTo} null while it still is). */
@MappedEntity("prices")
public record PriceRow(@Id @GeneratedValue @Nullable Long id, String offering, double usdPerHour, Instant validFrom,
    @Nullable Instant validTo) {

  public PricePoint point() {
    return new PricePoint(offering, usdPerHour, validFrom, validTo);
  }
}
