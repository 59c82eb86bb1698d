package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import io.squall.core.money.CostSplit;
import java.time.Instant;

/** A job's hold on a node, with its share of the node ({@code heldTo} null while it still holds it). */
@MappedEntity("holdings")
public record HoldingRow(@Id @GeneratedValue @Nullable Long id, String jobKey, String nodeName, double share,
    Instant heldFrom, @Nullable Instant heldTo) {

  /** The hold, an open one ending at {@code now}. */
  public CostSplit.Holding holding(Instant now) {
    return new CostSplit.Holding(jobKey, heldFrom, heldTo == null ? now : heldTo, share);
  }
}
