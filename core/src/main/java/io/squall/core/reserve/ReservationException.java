package io.squall.core.reserve;

/** A reservation request or use refused, with Slurm's message and what was wrong. */
public final class ReservationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ReservationException(String message) {
    super(message);
  }
}
