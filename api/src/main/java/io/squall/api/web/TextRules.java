package io.squall.api.web;

import io.squall.api.state.ApiException;
import io.squall.core.sbatch.SafeText;

/** The checks {@link SafeText} describes, as 400s that name the field. */
public final class TextRules {
  private TextRules() {}

  /** {@code s}, refused when it holds a NUL. */
  public static String noNul(String field, String s) {
    if (s != null && SafeText.hasNul(s)) {
      throw ApiException.badRequest(field + ": contains a NUL character");
    }
    return s;
  }

  /** {@code s} as a path or name: no control characters, at most {@code max} characters. */
  public static String plain(String field, String s, int max) {
    if (s == null) {
      return null;
    }
    int bad = SafeText.firstControl(s);
    if (bad >= 0) {
      throw ApiException.badRequest(field + ": contains a control character (" + SafeText.describe(s, bad) + ")");
    }
    if (s.length() > max) {
      throw ApiException.badRequest(field + ": at most " + max + " characters, not " + s.length());
    }
    return s;
  }

  /** A value fit for an error message. */
  public static String quoted(String s) {
    return SafeText.quoted(s);
  }
}
