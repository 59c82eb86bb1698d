package io.squall.spot.metadata;

import io.squall.core.spot.Interruption;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Which kinds of notice a watcher has already reported. A metadata service keeps showing a notice
 * until the machine goes, and a watcher polls every second: without this memory one notice would
 * be reported a hundred times. A kind is reported once while the service keeps showing it; when
 * the service shows no notice of that kind any more (404, {@code FALSE}, {@code NONE}), it is
 * forgotten, so that a later notice of it is reported again. Not thread-safe: a source is used
 * from one thread.
 */
final class ReportedKinds {
  private final Set<Interruption.Kind> reported = EnumSet.noneOf(Interruption.Kind.class);

  /** Adds {@code notice} to {@code out} unless its kind has been reported and still stands. */
  void seen(Interruption notice, List<Interruption> out) {
    if (reported.add(notice.kind())) {
      out.add(notice);
    }
  }

  /** The service shows no notice of {@code kind}. */
  void gone(Interruption.Kind kind) {
    reported.remove(kind);
  }

  /**
   * Applies what the service said of {@code kind} this poll; an unreadable answer changes
   * nothing, so a notice that was reported is not reported again after one garbled answer.
   */
  void apply(Interruption.Kind kind, Reading reading, List<Interruption> out) {
    if (reading instanceof Reading.Notice notice) {
      seen(notice.interruption(), out);
    } else if (reading instanceof Reading.Quiet) {
      gone(kind);
    }
  }
}
