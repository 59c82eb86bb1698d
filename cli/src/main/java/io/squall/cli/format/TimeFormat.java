package io.squall.cli.format;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * How Slurm's tools print a moment, as {@code SLURM_TIME_FORMAT} says (slurm_make_time_str in
 * Slurm's parse_time.c): unset or {@code standard} is {@code 2026-11-21T10:00:00} in the local
 * zone; {@code relative} is short and relative to today ({@code 10:00:00} today, {@code Ystday
 * 10:00}, {@code Tomorr 10:00}, {@code Sat 10:00} within a week, {@code 21 Nov 10:00} within a
 * year, {@code 21 Nov 2026} beyond); anything else with a {@code %} in it, under 32 characters, is
 * a strftime(3) format.
 */
public final class TimeFormat {
  /** Slurm keeps the format in a 32-byte buffer: a longer one is refused. */
  private static final int MAX_PATTERN = 31;

  private final ZoneId zone;
  /** The strftime pattern, or null for {@code relative}. */
  private final String pattern;
  private final Instant now;

  private TimeFormat(ZoneId zone, String pattern, Instant now) {
    this.zone = zone;
    this.pattern = pattern;
    this.now = now;
  }

  public static TimeFormat standard(ZoneId zone) {
    return new TimeFormat(zone, "%FT%T", null);
  }

  /**
   * @param setting the value of {@code SLURM_TIME_FORMAT}, or null
   * @param now today, for {@code relative}
   * @throws IllegalArgumentException {@code invalid SLURM_TIME_FORMAT = '...'}, Slurm's words,
   *     for a value that is none of the three; Slurm then prints the standard format
   */
  public static TimeFormat of(String setting, ZoneId zone, Instant now) {
    if (setting == null || setting.isEmpty() || setting.equals("standard")) {
      return standard(zone);
    }
    if (setting.equals("relative")) {
      return new TimeFormat(zone, null, now);
    }
    if (setting.indexOf('%') < 0 || setting.length() > MAX_PATTERN) {
      throw new IllegalArgumentException("invalid SLURM_TIME_FORMAT = '" + setting + "'");
    }
    return new TimeFormat(zone, setting, now);
  }

  public String format(Instant at) {
    ZonedDateTime t = at.atZone(zone);
    return Strftime.format(pattern != null ? pattern : relativePattern(t), t);
  }

  /** Like {@link #format(Instant)} with the tool's word for "none" (squeue says N/A, sacct Unknown). */
  public String format(Instant at, String none) {
    return at == null ? none : format(at);
  }

  /**
   * Slurm's _relative_date_fmt: the distance in days counts YYYYddd numbers, so 31 December and 1
   * January are "far" apart, exactly as Slurm prints them.
   */
  private String relativePattern(ZonedDateTime t) {
    ZonedDateTime today = now.atZone(zone);
    int distance = 1000 * t.getYear() + t.getDayOfYear() - (1000 * today.getYear() + today.getDayOfYear());
    if (distance == -1) {
      return "Ystday %H:%M";
    }
    if (distance == 0) {
      return "%H:%M:%S";
    }
    if (distance == 1) {
      return "Tomorr %H:%M";
    }
    if (distance < -365 || distance > 365) {
      return "%-d %b %Y";
    }
    if (distance < -1 || distance > 6) {
      return "%-d %b %H:%M";
    }
    return "%a %H:%M";
  }
}
