package io.squall.core.sbatch;

/** Slurm memory sizes: a whole number with an optional K, M, G or T suffix; megabytes by default. */
final class MemorySize {
  private MemorySize() {}

  /** @return megabytes, rounded up from kilobytes */
  static long parseMb(String text) {
    String t = text.strip();
    if (t.isEmpty()) {
      throw new IllegalArgumentException("empty memory size");
    }
    if (t.length() >= 2 && Character.toUpperCase(t.charAt(t.length() - 1)) == 'B'
        && "KMGT".indexOf(Character.toUpperCase(t.charAt(t.length() - 2))) >= 0) {
      // "16GB" is accepted by Slurm as 16G; a B after a digit is no unit ("16B" is an error).
      t = t.substring(0, t.length() - 1);
    }
    char last = Character.toUpperCase(t.charAt(t.length() - 1));
    String digits = Character.isLetter(last) ? t.substring(0, t.length() - 1) : t;
    if (!WholeNumber.is(digits, 12)) {
      throw new IllegalArgumentException("bad memory size '" + text + "': expected a number with K, M, G or T");
    }
    long n = Long.parseLong(digits);
    return switch (Character.isLetter(last) ? last : 'M') {
      case 'K' -> (n + 1023) / 1024;
      case 'M' -> n;
      case 'G' -> n * 1024;
      case 'T' -> n * 1024 * 1024;
      default -> throw new IllegalArgumentException(
          "bad memory unit '" + last + "' in '" + text + "': use K, M, G or T");
    };
  }
}
