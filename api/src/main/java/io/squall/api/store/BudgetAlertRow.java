package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/** A budget alert raised: the account's spend reached {@code percent} of its budget in the period. */
@MappedEntity("budget_alerts")
public record BudgetAlertRow(@Id @GeneratedValue @Nullable Long id, String account, Instant periodStart, int percent,
    double spentUsd, Instant raisedAt) {}
