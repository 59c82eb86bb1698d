package io.squall.cli.service;

import java.time.Instant;
import java.util.List;

/** An advanced reservation as {@code GET /v1/reservations} lists it. */
public record ReservationInfo(
    String name,
    Instant startTime,
    Instant endTime,
    Long durationSeconds,
    String nodes,
    Integer nodeCount,
    String partition,
    List<String> users,
    List<String> accounts,
    List<String> flags,
    String state) {}
