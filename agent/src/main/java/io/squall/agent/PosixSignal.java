package io.squall.agent;

import io.squall.core.sbatch.SignalSpec;

/**
 * A signal by its Linux number and name ({@code TERM} is 15), as the agent sends it and srun
 * describes it. Names and numbers are core's ({@link SignalSpec}), so that the agent reads
 * {@code TERM}, {@code SIGUSR1} and {@code 10} exactly as sbatch's {@code --signal} does.
 */
record PosixSignal(int number, String name) {
  /** Real-time signals end at 64 on Linux; exit statuses above 128+64 are ordinary exits. */
  static final int MAX = 64;

  static final PosixSignal KILL = of(9);
  static final PosixSignal TERM = of(15);

  /** @throws IllegalArgumentException naming the text when it is no signal */
  static PosixSignal parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("no signal given");
    }
    return of(SignalSpec.signalNumber(text));
  }

  /** @throws IllegalArgumentException when {@code number} is outside 1..64 */
  static PosixSignal of(int number) {
    if (number < 1 || number > MAX) {
      throw new IllegalArgumentException("unknown signal " + number);
    }
    return new PosixSignal(number, SignalSpec.signalName(number));
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
