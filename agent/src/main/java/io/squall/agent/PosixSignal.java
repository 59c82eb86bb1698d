package io.squall.agent;

import java.util.Locale;

/**
 * A signal by its Linux number and name ({@code TERM} is 15). Slurm and the controller name
 * signals in several ways ({@code TERM}, {@code SIGUSR1}, {@code 10}); all of them parse.
 */
record PosixSignal(int number, String name) {
  /** Real-time signals end at 64 on Linux; exit statuses above 128+64 are ordinary exits. */
  static final int MAX = 64;

  static final PosixSignal INT = new PosixSignal(2, "INT");
  static final PosixSignal KILL = new PosixSignal(9, "KILL");
  static final PosixSignal TERM = new PosixSignal(15, "TERM");

  // Linux numbering (x86-64 and arm64 agree); index = signal number.
  private static final String[] NAMES = {
    null, "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2",
    "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU",
    "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"
  };

  /** @throws IllegalArgumentException naming the text when it is no signal */
  static PosixSignal parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("no signal given");
    }
    String t = text.trim().toUpperCase(Locale.ROOT);
    if (t.startsWith("SIG")) {
      t = t.substring(3);
    }
    if (!t.isEmpty() && t.length() <= 2 && t.chars().allMatch(Character::isDigit)) {
      return of(Integer.parseInt(t));
    }
    for (int n = 1; n < NAMES.length; n++) {
      if (NAMES[n].equals(t)) {
        return new PosixSignal(n, NAMES[n]);
      }
    }
    throw new IllegalArgumentException("unknown signal '" + text + "'");
  }

  /** @throws IllegalArgumentException when {@code number} is outside 1..64 */
  static PosixSignal of(int number) {
    if (number < 1 || number > MAX) {
      throw new IllegalArgumentException("unknown signal " + number);
    }
    return new PosixSignal(number, number < NAMES.length ? NAMES[number] : Integer.toString(number));
  }

  /** What srun prints for a task killed by this signal, worded as strsignal(3) does. */
  String description() {
    switch (number) {
      case 1:
        return "Hangup";
      case 2:
        return "Interrupt";
      case 6:
        return "Aborted";
      case 7:
        return "Bus error";
      case 9:
        return "Killed";
      case 11:
        return "Segmentation fault";
      case 15:
        return "Terminated";
      default:
        return "Killed by signal " + number + " (" + name + ")";
    }
  }
}
