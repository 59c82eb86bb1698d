package io.squall.cli;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * sacct's {@code -S}/{@code -E} times, read in the local zone. Unlike sbatch's {@code --begin},
 * these look back (Slurm's {@code parse_time} with {@code past} set), because accounting asks about
 * the past: {@code 10:00} is today at ten even before ten, and a date without a year is the latest
 * such day up to today, so on 21 November {@code 11/20} is this year's and {@code 12/01} last
 * year's. (The formats are those of core's BeginTime, which looks forward; the two are separate
 * for now.)
 */
final class SacctTime {
  private static final Pattern RELATIVE = Pattern.compile("now(?:([+-])(\\d+)([a-z]*))?");

  private SacctTime() {}

  /** @throws UsageException for text that is not a Slurm time */
  static Instant parse(String text, Instant now, ZoneId zone) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    LocalDate today = now.atZone(zone).toLocalDate();
    try {
      Matcher relative = RELATIVE.matcher(t);
      if (relative.matches()) {
        if (relative.group(1) == null) {
          return now;
        }
        Duration d = unit(relative.group(3), text).multipliedBy(Long.parseLong(relative.group(2)));
        return relative.group(1).equals("+") ? now.plus(d) : now.minus(d);
      }
      switch (t) {
        case "today", "midnight" -> {
          return today.atStartOfDay(zone).toInstant();
        }
        case "tomorrow" -> {
          return today.plusDays(1).atStartOfDay(zone).toInstant();
        }
        case "noon" -> {
          return at(today, LocalTime.NOON, zone);
        }
        case "elevenses" -> {
          return at(today, LocalTime.of(11, 0), zone);
        }
        case "fika" -> {
          return at(today, LocalTime.of(15, 0), zone);
        }
        case "teatime" -> {
          return at(today, LocalTime.of(16, 0), zone);
        }
        default -> { }
      }
      if (t.matches("\\d{1,2}:\\d{2}(:\\d{2})?")) {
        return at(today, LocalTime.parse(t.indexOf(':') == 1 ? "0" + t : t), zone);
      }
      if (t.matches("\\d{4}-\\d{2}-\\d{2}")) {
        return LocalDate.parse(t).atStartOfDay(zone).toInstant();
      }
      if (t.matches("\\d{4}-\\d{2}-\\d{2}t\\d{2}:\\d{2}(:\\d{2})?")) {
        return LocalDateTime.parse(t.toUpperCase(Locale.ROOT)).atZone(zone).toInstant();
      }
      if (t.matches("\\d{1,2}/\\d{1,2}(/\\d{2}|/\\d{4})?")) {
        String[] p = t.split("/");
        return date(p[0], p[1], p.length == 3 ? p[2] : null, today, zone);
      }
      if (t.matches("\\d{4}(\\d{2})?")) {
        return date(t.substring(0, 2), t.substring(2, 4), t.length() == 6 ? t.substring(4) : null, today, zone);
      }
    } catch (DateTimeException e) {
      throw new UsageException("invalid time '" + text + "': " + e.getMessage());
    } catch (ArithmeticException | NumberFormatException e) {
      throw new UsageException("invalid time '" + text + "': too far from now");
    }
    throw new UsageException("invalid time '" + text + "': use YYYY-MM-DD[THH:MM[:SS]], MM/DD[/YY], MMDD[YY],"
        + " HH:MM[:SS], now[-N[seconds|minutes|hours|days|weeks]], today, midnight, noon or tomorrow");
  }

  private static Instant date(String month, String day, String year, LocalDate today, ZoneId zone) {
    int m = Integer.parseInt(month);
    int d = Integer.parseInt(day);
    LocalDate date;
    if (year != null) {
      date = LocalDate.of(year.length() == 2 ? 2000 + Integer.parseInt(year) : Integer.parseInt(year), m, d);
    } else {
      date = LocalDate.of(today.getYear(), m, d);
      if (date.isAfter(today)) {
        date = LocalDate.of(today.getYear() - 1, m, d); // not yet this year: last year's
      }
    }
    return date.atStartOfDay(zone).toInstant();
  }

  private static Instant at(LocalDate day, LocalTime time, ZoneId zone) {
    return ZonedDateTime.of(day, time, zone).toInstant();
  }

  private static Duration unit(String unit, String text) {
    switch (unit) {
      case "", "s", "sec", "secs", "second", "seconds" -> {
        return Duration.ofSeconds(1);
      }
      case "m", "min", "mins", "minute", "minutes" -> {
        return Duration.ofMinutes(1);
      }
      case "h", "hour", "hours" -> {
        return Duration.ofHours(1);
      }
      case "d", "day", "days" -> {
        return Duration.ofDays(1);
      }
      case "w", "week", "weeks" -> {
        return Duration.ofDays(7);
      }
      default -> throw new UsageException("invalid time '" + text + "': unknown unit '" + unit
          + "' (use seconds, minutes, hours, days or weeks)");
    }
  }
}
