package io.squall.core.sbatch;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;

/**
 * Slurm's {@code --begin}/{@code --deadline} times: {@code now[+N[units]]} (seconds by default;
 * units seconds, minutes, hours, days, weeks), {@code HH:MM[:SS]} (the next such time),
 * {@code YYYY-MM-DD[THH:MM[:SS]]}, {@code MM/DD[/YY]}, and {@code midnight}, {@code noon},
 * {@code elevenses} (11:00), {@code fika} (15:00), {@code teatime} (16:00), {@code today}, {@code tomorrow}.
 * Times are read in the submitter's zone, relative to the injected "now".
 */
public final class BeginTime {
  private BeginTime() {}

  public static Instant parse(String text, Instant now, ZoneId zone) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    ZonedDateTime here = now.atZone(zone);
    try {
      if (t.startsWith("now")) {
        return now.plus(offset(t.substring(3)));
      }
      switch (t) {
        case "today" -> {
          return here.toLocalDate().atStartOfDay(zone).toInstant();
        }
        case "tomorrow" -> {
          return here.toLocalDate().plusDays(1).atStartOfDay(zone).toInstant();
        }
        case "midnight" -> {
          return nextTime(here, LocalTime.MIDNIGHT);
        }
        case "noon" -> {
          return nextTime(here, LocalTime.NOON);
        }
        case "fika" -> {
          return nextTime(here, LocalTime.of(15, 0));
        }
        case "teatime" -> {
          return nextTime(here, LocalTime.of(16, 0));
        }
        case "elevenses" -> {
          return nextTime(here, LocalTime.of(11, 0));
        }
        default -> { }
      }
      if (t.matches("\\d{1,2}:\\d{2}(:\\d{2})?")) {
        return nextTime(here, LocalTime.parse(t.length() < 5 || t.charAt(1) == ':' ? "0" + t : t));
      }
      if (t.matches("\\d{4}-\\d{2}-\\d{2}")) {
        return LocalDate.parse(t).atStartOfDay(zone).toInstant();
      }
      if (t.matches("\\d{4}-\\d{2}-\\d{2}t\\d{2}:\\d{2}(:\\d{2})?")) {
        return LocalDateTime.parse(t.toUpperCase(Locale.ROOT)).atZone(zone).toInstant();
      }
      if (t.matches("\\d{1,2}/\\d{1,2}(/\\d{2})?")) {
        String[] p = t.split("/");
        LocalDate date = LocalDate.of(p.length == 3 ? 2000 + Integer.parseInt(p[2]) : here.getYear(),
            Integer.parseInt(p[0]), Integer.parseInt(p[1]));
        if (p.length == 2 && date.isBefore(here.toLocalDate())) {
          date = date.plusYears(1); // a date without a year that has passed means next year, as in Slurm
        }
        return date.atStartOfDay(zone).toInstant();
      }
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("not a valid date or time: " + e.getMessage());
    }
    throw new IllegalArgumentException("unknown time '" + text + "': use now+1hour, HH:MM[:SS],"
        + " YYYY-MM-DD[THH:MM[:SS]], MM/DD[/YY], today, tomorrow, midnight, noon, fika or teatime");
  }

  private static Instant nextTime(ZonedDateTime here, LocalTime time) {
    ZonedDateTime at = here.with(time);
    return (at.isAfter(here) ? at : at.plusDays(1)).toInstant();
  }

  private static Duration offset(String rest) {
    if (rest.isEmpty()) {
      return Duration.ZERO;
    }
    if (rest.charAt(0) != '+') {
      throw new IllegalArgumentException("expected now+N[units], e.g. now+1hour");
    }
    int i = 1;
    while (i < rest.length() && Character.isDigit(rest.charAt(i))) {
      i++;
    }
    if (i == 1 || i > 10) {
      throw new IllegalArgumentException("expected a count after 'now+', e.g. now+1hour");
    }
    long n = Long.parseLong(rest.substring(1, i));
    String unit = rest.substring(i);
    if (unit.isEmpty() || "seconds".startsWith(unit)) {
      return Duration.ofSeconds(n);
    }
    if ("minutes".startsWith(unit)) {
      return Duration.ofMinutes(n);
    }
    if ("hours".startsWith(unit)) {
      return Duration.ofHours(n);
    }
    if ("days".startsWith(unit)) {
      return Duration.ofDays(n);
    }
    if ("weeks".startsWith(unit)) {
      return Duration.ofDays(7 * n);
    }
    throw new IllegalArgumentException("unknown unit '" + unit + "': use seconds, minutes, hours, days or weeks");
  }
}
