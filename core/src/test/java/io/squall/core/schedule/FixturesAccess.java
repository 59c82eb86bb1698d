package io.squall.core.schedule;

import io.squall.core.model.Node;
import java.util.List;

/** Lets tests in other packages build the scheduler tests' standard nodes. */
public final class FixturesAccess {
  private FixturesAccess() {}

  /** {@code count} idle 8-GPU nodes gpu001.. in one placement group. */
  public static List<Node> nodes(int count) {
    return Fixtures.nodes("gpu", count, count);
  }
}
