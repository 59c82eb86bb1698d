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
    String state) {
  /** Reads one from the service's JSON. */
  static ReservationInfo from(JsonAnswer a) {
    return new ReservationInfo(
        a.requiredString("name"),
        a.instant("start_time"),
        a.instant("end_time"),
        a.longValue("duration_seconds"),
        a.string("nodes"),
        a.integer("node_count"),
        a.string("partition"),
        a.strings("users"),
        a.strings("accounts"),
        a.strings("flags"),
        a.string("state"));
  }
}
