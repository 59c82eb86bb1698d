package io.squall.providers.gcp;

/** The labels and metadata keys Squall puts on its GCE instances. */
final class GceLabels {
  /** The cluster (label, sanitized: what {@code list} filters on; metadata, exact). */
  static final String CLUSTER = "squall-cluster";
  static final String PARTITION = "squall-partition";
  /** The launch's idempotency token. */
  static final String LAUNCH = "squall-launch";
  static final String PLACEMENT_GROUP = "squall-placement-group";
  /** The metadata key GCE's guest environment runs at boot. */
  static final String STARTUP_SCRIPT = "startup-script";

  private GceLabels() {}
}
