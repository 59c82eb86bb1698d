package io.squall.cli;

import io.squall.cli.service.ShareInfo;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * sshare's fields with Slurm's names and default widths (negative: left-justified), as its
 * process.c prints them: doubles as {@code %f}, RawUsage as a whole number, the account indented
 * one space per level of the tree (a user one deeper than its account).
 */
enum SshareField {
  ACCOUNT("Account", -20, s -> " ".repeat(s.depth()) + s.account()),
  USER("User", 10, s -> s.user() == null ? "" : s.user()),
  RAWSHARES("RawShares", 10, s -> s.rawShares() == null ? "" : s.rawShares().toString()),
  NORMSHARES("NormShares", 11, s -> decimal(s.normShares())),
  RAWUSAGE("RawUsage", 11, s -> Long.toString((long) s.rawUsage())),
  NORMUSAGE("NormUsage", 11, s -> decimal(s.normUsage())),
  EFFECTVUSAGE("EffectvUsage", 13, s -> decimal(s.effectiveUsage())),
  FAIRSHARE("FairShare", 10, s -> s.fairShare() == null ? "" : decimal(s.fairShare())),
  LEVELFS("LevelFS", 10, s -> s.levelFs() == null ? "" : s.levelFs().equals("inf") ? "inf"
      : decimal(Double.parseDouble(s.levelFs())));

  /** sshare's columns, short and long (-l), per algorithm; GrpTRESMins and TRESRunMins are not modelled. */
  static final List<SshareField> SHORT = List.of(ACCOUNT, USER, RAWSHARES, NORMSHARES, RAWUSAGE, EFFECTVUSAGE,
      FAIRSHARE);
  static final List<SshareField> LONG_FAIR_TREE = List.of(ACCOUNT, USER, RAWSHARES, NORMSHARES, RAWUSAGE, NORMUSAGE,
      EFFECTVUSAGE, FAIRSHARE, LEVELFS);
  static final List<SshareField> LONG_CLASSIC = List.of(ACCOUNT, USER, RAWSHARES, NORMSHARES, RAWUSAGE, NORMUSAGE,
      EFFECTVUSAGE, FAIRSHARE);

  private final String title;
  private final int width;
  private final Function<ShareInfo, String> value;

  SshareField(String title, int width, Function<ShareInfo, String> value) {
    this.title = title;
    this.width = width;
    this.value = value;
  }

  String title() {
    return title;
  }

  /** Characters; negative means left-justified. */
  int width() {
    return width;
  }

  String value(ShareInfo share) {
    return value.apply(share);
  }

  private static String decimal(double v) {
    return String.format(Locale.ROOT, "%f", v);
  }
}
