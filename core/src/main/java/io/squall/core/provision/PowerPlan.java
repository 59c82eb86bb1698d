package io.squall.core.provision;

import java.time.Instant;
import java.util.List;

/**
 * What one {@link PowerPlanner#plan} decided, and when it could decide otherwise for the nodes it
 * left waiting for a launch call, with nothing changed from outside.
 *
 * @param reviewAt the earliest instant after the plan's at which a unit of waiting nodes could be
 *     launched or decided otherwise by time alone: its batch window or backoff ends, an offering
 *     left alone may be tried again, on-demand is allowed after on-demand-after, a deadline's
 *     rule changes; null when only a change from outside can (a node's state or jobs, the
 *     offerings listed, finance's rules)
 */
public record PowerPlan(List<PowerAction> actions, Instant reviewAt) {
  public PowerPlan {
    actions = List.copyOf(actions);
  }

  /** Whether it only says why nodes wait: carried out, it leaves the nodes as it saw them. */
  public boolean quiet() {
    return actions.stream().allMatch(PowerAction.Wait.class::isInstance);
  }
}
