package io.squall.api.web;

import io.squall.api.state.ApiException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

/**
 * A time given as a query parameter, in the forms sacct users write: a date ({@code 2026-11-01},
 * its midnight), a local time ({@code 2026-11-01T09:00[:00]}) in the cluster's time zone, or an
 * instant with its offset ({@code 2026-11-01T09:00:00Z}).
 */
public final class TimeParameter {
  private TimeParameter() {}

  /** @throws ApiException 400, naming the parameter, when the text is none of these */
  public static Instant parse(String name, String text, ZoneId zone) {
    String t = text.strip();
    try {
      if (t.length() == 10) {
        return LocalDate.parse(t).atStartOfDay(zone).toInstant();
      }
      if (t.endsWith("Z") || t.endsWith("z") || t.matches(".*T.*[+-]\\d\\d:?\\d\\d$")) {
        return OffsetDateTime.parse(t.toUpperCase(java.util.Locale.ROOT)).toInstant();
      }
      return LocalDateTime.parse(t).atZone(zone).toInstant();
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(name + "=" + text + ": expected a date (2026-11-01), a local time "
          + "(2026-11-01T09:00) or an instant (2026-11-01T09:00:00Z)");
    }
  }
}
