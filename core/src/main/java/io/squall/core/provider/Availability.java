package io.squall.core.provider;

/** What a provider says of an offering's capacity before anyone tries to launch it. */
public enum Availability {
  /** Offered in this zone; a launch may still fail with insufficient capacity. */
  AVAILABLE,
  /** Not offered in this zone, or the provider knows there is none now. */
  UNAVAILABLE
}
