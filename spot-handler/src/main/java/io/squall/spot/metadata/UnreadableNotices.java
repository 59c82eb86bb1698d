package io.squall.spot.metadata;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Logs a notice the watcher cannot read, once per distinct answer: the service repeats the same
 * answer every poll, and one line a second would bury everything else in the log.
 */
final class UnreadableNotices {
  private final Logger log;
  private String last;

  UnreadableNotices(Logger log) {
    this.log = log;
  }

  void skip(String path, String body, String why) {
    String key = path + "\n" + body;
    if (!key.equals(last)) {
      last = key;
      String shown = body.length() > 200 ? body.substring(0, 200) + "..." : body;
      // Parser messages run over several lines (with the location); the first says what was wrong.
      String reason = why == null ? "" : why.lines().findFirst().orElse("");
      log.log(Level.WARNING, "skipping a notice that cannot be read: " + path + " answered '" + shown.strip()
          + "': " + reason);
    }
  }
}
