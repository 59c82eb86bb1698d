package io.squall.core.money;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;

/** The calendar period a budget is for, in the cluster's time zone; weeks start on Monday (ISO). */
public enum BudgetPeriod {
  DAY, WEEK, MONTH;

  /** When the period that holds {@code now} began. */
  public Instant start(Instant now, ZoneId zone) {
    LocalDate today = LocalDate.ofInstant(now, zone);
    LocalDate first = switch (this) {
      case DAY -> today;
      case WEEK -> today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
      case MONTH -> today.withDayOfMonth(1);
    };
    return first.atStartOfDay(zone).toInstant();
  }

  /** When the period after the one that holds {@code now} begins. */
  public Instant next(Instant now, ZoneId zone) {
    LocalDate first = LocalDate.ofInstant(start(now, zone), zone);
    LocalDate after = switch (this) {
      case DAY -> first.plusDays(1);
      case WEEK -> first.plusWeeks(1);
      case MONTH -> first.plusMonths(1);
    };
    return after.atStartOfDay(zone).toInstant();
  }
}
