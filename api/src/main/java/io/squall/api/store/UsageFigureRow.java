package io.squall.api.store;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

/** One figure of the fair-share ledger: an association's or a QOS's usage. */
@MappedEntity("usage_figures")
public record UsageFigureRow(@Id String figure, double amount) {}
