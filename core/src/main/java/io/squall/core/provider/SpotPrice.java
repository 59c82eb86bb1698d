package io.squall.core.provider;

import java.time.Instant;

/** The spot price of an instance type in a zone since {@code since}, in US dollars per hour. */
public record SpotPrice(String instanceType, String zone, double pricePerHour, Instant since) {}
