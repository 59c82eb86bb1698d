package io.squall.core.sbatch;

/**
 * One option as given: which, its value (null for flags), where it came from and how it was
 * written, so errors can quote it.
 */
record OptionValue(SbatchOption option, String value, String where, String written) {
  SbatchException error(String reason) {
    return new SbatchException(where, written, reason);
  }
}
