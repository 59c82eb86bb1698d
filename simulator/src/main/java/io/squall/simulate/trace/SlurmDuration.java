package io.squall.simulate.trace;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as sacct prints them in Elapsed and Timelimit: {@code [D-]HH:MM:SS} (1-00:00:00,
 * 01:02:03) and {@code MM:SS}; a time limit may also be {@code UNLIMITED} or
 * {@code Partition_Limit} (sacct(1): "Format is the same as Elapsed").
 */
final class SlurmDuration {
  static final String FORMS = "[D-]HH:MM:SS";

  private static final Pattern DURATION = Pattern.compile("(?:(\\d{1,6})-)?(\\d{1,9}):(\\d{2})(?::(\\d{2}))?");
  /**
   * What sacct prints for a job without a limit of its own (UNLIMITED, Partition_Limit), and
   * sbatch's other word for unlimited: none of them is a limit the replay could hold the job to.
   */
  private static final Set<String> NO_LIMIT = Set.of("UNLIMITED", "INFINITE", "PARTITION_LIMIT");

  private SlurmDuration() {}

  /**
   * @return the duration
   * @throws IllegalArgumentException saying what is wrong, when {@code text} is not one
   */
  static Duration parse(String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw notADuration(text);
    }
    long days = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
    long hours;
    long minutes;
    long seconds;
    if (m.group(4) != null) {
      hours = Long.parseLong(m.group(2));
      minutes = Long.parseLong(m.group(3));
      seconds = Long.parseLong(m.group(4));
    } else if (m.group(1) == null) {
      hours = 0;
      minutes = Long.parseLong(m.group(2));
      seconds = Long.parseLong(m.group(3));
    } else {
      throw notADuration(text); // D-HH:MM is sbatch's input form, never what sacct prints
    }
    if (seconds > 59 || minutes > 59 || (m.group(1) != null && hours > 23)) {
      throw new IllegalArgumentException(RowFields.quoted(text) + " is not a Slurm duration (" + FORMS
          + "): a field is out of range");
    }
    return Duration.ofDays(days).plusHours(hours).plusMinutes(minutes).plusSeconds(seconds);
  }

  /** A Timelimit: null when the job had none of its own (blank, UNLIMITED, Partition_Limit). */
  static Duration limit(String text) {
    if (text.isBlank() || NO_LIMIT.contains(text.strip().toUpperCase(Locale.ROOT))) {
      return null;
    }
    Duration limit = parse(text);
    return limit.isZero() ? null : limit;
  }

  private static IllegalArgumentException notADuration(String text) {
    return new IllegalArgumentException(RowFields.quoted(text) + " is not a Slurm duration (" + FORMS + ")");
  }
}
