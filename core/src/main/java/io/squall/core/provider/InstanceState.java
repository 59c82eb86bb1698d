package io.squall.core.provider;

/** A cloud instance's life, as the provider reports it (EC2's and GCE's states folded). */
public enum InstanceState {
  /** Asked for, booting: costs money, has no agent yet. */
  PENDING,
  RUNNING,
  /** Being stopped or deleted. */
  STOPPING,
  /** Gone; providers may keep listing it for a while. */
  TERMINATED;

  /** Whether the instance may still bill and run work. */
  public boolean alive() {
    return switch (this) {
      case PENDING, RUNNING, STOPPING -> true;
      case TERMINATED -> false;
    };
  }
}
