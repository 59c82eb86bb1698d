package io.squall.core.sbatch;

/** The whole numbers sbatch options are written with: plain digits, no sign. */
final class WholeNumber {
  /** Nine digits always fit an int. */
  static final int MAX_DIGITS = 9;

  private WholeNumber() {}

  /** Whether {@code s} is 1 to {@link #MAX_DIGITS} digits. */
  static boolean is(String s) {
    return is(s, MAX_DIGITS);
  }

  /** Whether {@code s} is 1 to {@code maxDigits} digits. */
  static boolean is(String s, int maxDigits) {
    return !s.isEmpty() && s.length() <= maxDigits && s.chars().allMatch(Character::isDigit);
  }
}
