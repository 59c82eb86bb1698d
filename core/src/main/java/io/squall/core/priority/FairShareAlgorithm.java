package io.squall.core.priority;

import java.util.Locale;

/**
 * How fair-share factors are computed from shares and usage: Slurm's Fair Tree (its default since
 * 19.05, fair_tree.html) or the classic formula ({@code PriorityFlags=NO_FAIR_TREE},
 * classic_fair_share.html).
 */
public enum FairShareAlgorithm {
  FAIR_TREE("fair-tree"),
  CLASSIC("classic");

  private final String configName;

  FairShareAlgorithm(String configName) {
    this.configName = configName;
  }

  /** How the configuration names it. */
  public String configName() {
    return configName;
  }

  /** @throws IllegalArgumentException naming the accepted values */
  public static FairShareAlgorithm parse(String name) {
    for (FairShareAlgorithm a : values()) {
      if (a.configName.equals(name == null ? "" : name.trim().toLowerCase(Locale.ROOT))) {
        return a;
      }
    }
    throw new IllegalArgumentException("'" + name + "' is not fair-tree or classic");
  }
}
