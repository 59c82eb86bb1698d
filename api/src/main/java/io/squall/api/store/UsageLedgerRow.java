package io.squall.api.store;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/** The fair-share ledger's one row: the instant its figures are decayed to. */
@MappedEntity("usage_ledger")
public record UsageLedgerRow(@Id int id, Instant decayedAt) {
  /** The id of the one row. */
  public static final int ONLY = 1;
}
