package io.squall.simulate;

import io.squall.core.provider.Instance;
import io.squall.core.spot.Interruption;
import java.time.Instant;

/**
 * When a simulated cloud takes spot instances back: the {@link SimulatedProvider} asks once per
 * spot instance, at its launch, and the simulation acts on the notice when its time comes.
 */
@FunctionalInterface
public interface SpotReclaims {
  /**
   * The notice the cloud will give before it takes {@code instance} back, or null when it never
   * will. Called once per spot instance, at its launch, in launch order; implementations may keep
   * state (a random stream per node), so the same launches in the same order must give the same
   * notices.
   *
   * @param launchedAt the instance's launch instant (virtual time)
   */
  Interruption notice(Instance instance, Instant launchedAt);
}
