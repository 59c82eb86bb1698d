package io.squall.cli.format;

import java.util.Locale;

/**
 * Node states as sinfo prints them: {@code %t} short ({@code idle}, {@code mix}, {@code alloc})
 * and {@code %T} long ({@code mixed}, {@code allocated}). Powered-down cloud nodes carry Slurm's
 * power suffixes: {@code ~} powered down, {@code #} powering up, {@code %} powering down.
 */
public final class NodeStates {
  private NodeStates() {}

  public static String shortName(String state) {
    String s = upper(state);
    return switch (s) {
      case "IDLE" -> "idle";
      case "MIXED" -> "mix";
      case "ALLOCATED" -> "alloc";
      case "COMPLETING" -> "comp";
      case "DRAINING" -> "drng";
      case "DRAINED" -> "drain";
      case "DOWN" -> "down";
      case "FUTURE" -> "futr";
      case "CLOUD" -> "idle~";
      case "POWERING_UP" -> "idle#";
      case "POWERING_DOWN" -> "idle%";
      default -> s.toLowerCase(Locale.ROOT);
    };
  }

  public static String longName(String state) {
    String s = upper(state);
    return switch (s) {
      case "CLOUD" -> "idle~";
      case "POWERING_UP" -> "idle#";
      case "POWERING_DOWN" -> "idle%";
      default -> s.toLowerCase(Locale.ROOT);
    };
  }

  private static String upper(String state) {
    return state == null ? "unknown" : state.toUpperCase(Locale.ROOT);
  }
}
