package io.squall.cli;

import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * {@code -i/--iterate=SECONDS} of sinfo and squeue: each round is followed by a blank line, and
 * the next comes after the period, until the command is stopped. Each round, and the only one of
 * a long or verbose listing, is headed by the moment as ctime(3) prints it, unless {@code -h}.
 */
final class Iterate {
  private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT);

  private Iterate() {}

  /** @throws UsageException unless {@code value} is a whole number of seconds above 0, as Slurm's tools insist */
  static Duration period(String value) {
    try {
      long seconds = Long.parseLong(value.strip());
      if (seconds > 0) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("Error: invalid entry for --iterate=" + value);
  }

  /** Whether a round starts with the date: as sinfo and squeue, when iterating, long or verbose, and with a header. */
  static boolean dated(Getopt.Parsed args, Duration every, String longOption) {
    return !args.has("noheader") && (every != null || args.has(longOption) || args.has("verbose"));
  }

  static String heading(Invocation io) {
    return CTIME.format(io.clock().instant().atZone(io.zone()));
  }

  /** Ends a round and waits for the next: false once the wait is interrupted (the command stops). */
  static boolean pause(Invocation io, Duration every) {
    io.out().println();
    io.out().flush();
    try {
      io.sleeper().sleep(every);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
