package io.squall.cli.service;

/**
 * One association as {@code GET /v1/shares} lists it.
 *
 * @param user null for root and accounts
 * @param depth 0 for root
 * @param rawShares null for root
 * @param levelFs Fair Tree's Level Fairshare as a number, or {@code inf}; null when there is none
 * @param fairShare null where there is none (root; accounts under Fair Tree)
 */
public record ShareInfo(String account, String user, int depth, Integer rawShares, double normShares,
    double rawUsage, double normUsage, double effectiveUsage, String levelFs, Double fairShare) {
  /** Reads one from the service's JSON. */
  static ShareInfo from(JsonAnswer a) {
    return new ShareInfo(
        a.string("account"),
        a.string("user"),
        a.intOrZero("depth"),
        a.integer("raw_shares"),
        a.decimalOrZero("norm_shares"),
        a.decimalOrZero("raw_usage"),
        a.decimalOrZero("norm_usage"),
        a.decimalOrZero("effective_usage"),
        a.string("level_fs"),
        a.decimal("fair_share"));
  }
}
