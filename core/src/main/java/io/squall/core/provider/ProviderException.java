package io.squall.core.provider;

/**
 * A provider could not do what it was asked. The {@link Kind} says what the caller may do about
 * it; the message carries the provider's own error text (for pending reasons and logs).
 */
public final class ProviderException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Closed set of failures, each with its retry meaning. */
  public enum Kind {
    /** No capacity for this offering now (EC2 InsufficientInstanceCapacity, GCE ZONE_RESOURCE_POOL_EXHAUSTED): try another offering; this one later. */
    INSUFFICIENT_CAPACITY,
    /** An account limit (EC2 MaxSpotInstanceCountExceeded, InstanceLimitExceeded, GCE QUOTA_EXCEEDED): do not retry this capacity type soon. */
    QUOTA_EXCEEDED,
    /** The spot price is above the price cap (EC2 SpotMaxPriceTooLow): another offering or on-demand. */
    PRICE_TOO_HIGH,
    /** The provider asks us to slow down (EC2 RequestLimitExceeded, HTTP 429): retry the same call after a backoff. */
    THROTTLED,
    /** Credentials missing or refused (AuthFailure, UnauthorizedOperation, HTTP 401/403): no retry helps. */
    UNAUTHORIZED,
    /** The thing named does not exist (for terminate this means done). */
    NOT_FOUND,
    /** The request is wrong (bad template, unknown image): no retry helps until configuration changes. */
    INVALID,
    /** A network error or a 5xx: retry the same call after a backoff. */
    TRANSIENT;

    /** Whether the same call may succeed if simply made again later. */
    public boolean retryable() {
      return switch (this) {
        case THROTTLED, TRANSIENT -> true;
        case INSUFFICIENT_CAPACITY, QUOTA_EXCEEDED, PRICE_TOO_HIGH, UNAUTHORIZED, NOT_FOUND, INVALID -> false;
      };
    }

    /** Whether another offering (type, zone, capacity type) may succeed where this one failed. */
    public boolean tryAnotherOffering() {
      return switch (this) {
        case INSUFFICIENT_CAPACITY, QUOTA_EXCEEDED, PRICE_TOO_HIGH -> true;
        case THROTTLED, TRANSIENT, UNAUTHORIZED, NOT_FOUND, INVALID -> false;
      };
    }
  }

  private final Kind kind;

  public ProviderException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public ProviderException(Kind kind, String message) {
    this(kind, message, null);
  }

  public Kind kind() {
    return kind;
  }
}
