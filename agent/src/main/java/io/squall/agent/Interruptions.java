package io.squall.agent;

import io.squall.core.spot.InterruptionSource;
import io.squall.spot.metadata.Ec2MetadataSource;
import io.squall.spot.metadata.GceMetadataSource;
import java.net.URI;
import java.time.InstantSource;
import java.util.Locale;
import java.util.Optional;

/** Which cloud's metadata service the agent watches for interruption notices ({@code --interruptions}). */
enum Interruptions {
  /** EC2 instance metadata (IMDSv2): Spot interruption notices and rebalance recommendations. */
  AWS,
  /** The GCE metadata server: preemption and host maintenance that terminates. */
  GCP,
  /** No watcher: hand-started agents, the local provider's nodes. */
  NONE;

  /** @throws IllegalArgumentException for anything but aws, gcp or none (any case) */
  static Interruptions parse(String text) {
    for (Interruptions value : values()) {
      if (value.option().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return value;
      }
    }
    throw new IllegalArgumentException("--interruptions must be aws, gcp or none, got '" + text + "'");
  }

  /** As the command line spells it. */
  String option() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The watcher for this cloud, reading {@code metadataUrl} when given, else the cloud's own
   * metadata address; empty for {@link #NONE}.
   */
  Optional<InterruptionSource> source(String node, URI metadataUrl, InstantSource clock) {
    return switch (this) {
      case AWS -> Optional.of(new Ec2MetadataSource(node,
          metadataUrl == null ? Ec2MetadataSource.DEFAULT_BASE : metadataUrl, clock));
      case GCP -> Optional.of(new GceMetadataSource(node,
          metadataUrl == null ? GceMetadataSource.DEFAULT_BASE : metadataUrl, clock));
      case NONE -> Optional.empty();
    };
  }
}
