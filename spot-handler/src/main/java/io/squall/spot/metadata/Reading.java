package io.squall.spot.metadata;

import io.squall.core.spot.Interruption;

/** What one metadata key said in one poll. */
sealed interface Reading {
  /** The key shows no notice (404, {@code FALSE}, {@code NONE}, a live migration). */
  record Quiet() implements Reading {}

  /** The key shows a notice. */
  record Notice(Interruption interruption) implements Reading {}

  /** The key answered something this watcher cannot read; it has been logged. */
  record Unreadable() implements Reading {}

  Reading QUIET = new Quiet();
  Reading UNREADABLE = new Unreadable();
}
