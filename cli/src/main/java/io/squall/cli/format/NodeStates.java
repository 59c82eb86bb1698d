package io.squall.cli.format;

import io.squall.core.model.NodeState;
import java.util.Locale;

/**
 * Node states as sinfo prints them: {@code %t} short ({@code idle}, {@code mix}, {@code alloc})
 * and {@code %T} long ({@code mixed}, {@code allocated}), for the states of core's
 * {@link NodeState}. Powered-down cloud nodes carry Slurm's power suffixes: {@code ~} powered
 * down, {@code #} powering up, {@code %} powering down. A state the core does not have prints in
 * lower case.
 */
public final class NodeStates {
  private NodeStates() {}

  /**
   * As sinfo shows a node: a draining node with no job left on it is drained ({@code drain},
   * {@code drained}), with jobs still running it is draining ({@code drng}, {@code draining}).
   */
  public static String shortName(String state, boolean jobsLeft) {
    return known(state) == NodeState.DRAINING && !jobsLeft ? "drain" : shortName(state);
  }

  /** See {@link #shortName(String, boolean)}. */
  public static String longName(String state, boolean jobsLeft) {
    return known(state) == NodeState.DRAINING && !jobsLeft ? "drained" : longName(state);
  }

  public static String shortName(String state) {
    NodeState s = known(state);
    if (s == null) {
      return lower(state);
    }
    return switch (s) {
      case IDLE -> "idle";
      case MIXED -> "mix";
      case ALLOCATED -> "alloc";
      case DRAINING -> "drng";
      case DOWN -> "down";
      case CLOUD -> "idle~";
      case POWERING_UP -> "idle#";
      case POWERING_DOWN -> "idle%";
    };
  }

  public static String longName(String state) {
    NodeState s = known(state);
    if (s == null) {
      return lower(state);
    }
    return switch (s) {
      case CLOUD, POWERING_UP, POWERING_DOWN -> shortName(state);
      case IDLE, MIXED, ALLOCATED, DRAINING, DOWN -> s.name().toLowerCase(Locale.ROOT);
    };
  }

  /** The core's state of a name the service gave (any case), or null for one the core does not have. */
  public static NodeState known(String state) {
    if (state == null) {
      return null;
    }
    try {
      return NodeState.valueOf(state.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String lower(String state) {
    return state == null ? "unknown" : state.toLowerCase(Locale.ROOT);
  }
}
