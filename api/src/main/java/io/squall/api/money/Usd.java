package io.squall.api.money;

/** US dollars as the API shows them: to a hundredth of a cent, so that sums check to within rounding. */
public final class Usd {
  private Usd() {}

  public static double round(double usd) {
    return Math.round(usd * 10_000) / 10_000.0;
  }

  /** Null for an amount not known (NaN). */
  public static Double roundOrNull(double usd) {
    return Double.isNaN(usd) ? null : round(usd);
  }
}
