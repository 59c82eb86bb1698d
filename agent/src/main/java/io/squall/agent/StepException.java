package io.squall.agent;

/** srun cannot run the step; the message is printed after {@code srun: error: } and srun exits 1. */
final class StepException extends Exception {
  private static final long serialVersionUID = 1L;

  StepException(String message) {
    super(message);
  }
}
