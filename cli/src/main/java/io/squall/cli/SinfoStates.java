package io.squall.cli;

import io.squall.cli.format.NodeStates;
import io.squall.cli.service.NodeInfo;
import io.squall.core.model.NodeState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * sinfo's {@code -t/--states}: the node states asked for, and whether a node is in one of them.
 *
 * <p>A name is read as sinfo reads it (opts.c): case-insensitively, as the start of a state's long
 * or compact name, the base states first in Slurm's order ({@code d} is down, {@code al} allocated,
 * {@code mix} mixed), then the flags; {@code all} is every state. States Squall has no node in
 * (future, fail, maint, ...) are accepted and match nothing. A node is in a state as Slurm's filter
 * sees it: a draining node is {@code drain} and {@code draining} while jobs run on it (and mixed or
 * allocated, its base state), {@code drain}, {@code drained} and idle once they are gone; a
 * powered-down cloud node is idle, {@code cloud} and {@code powered_down}.
 */
final class SinfoStates {
  /** Canonical name first, then the other names a prefix may match; in sinfo's order of lookup. */
  private static final List<List<String>> NAMES = List.of(
      List.of("unknown", "unk"),
      List.of("down"),
      List.of("idle"),
      List.of("allocated", "alloc"),
      List.of("error", "err"),
      List.of("mixed", "mix"),
      List.of("future", "futr"),
      List.of("drain"),
      List.of("drained"),
      List.of("draining", "drng"),
      List.of("no_respond", "npr"),
      List.of("reserved", "resv"),
      List.of("perfctrs", "npc"),
      List.of("completing", "comp"),
      List.of("powered_down", "power_down"),
      List.of("powering_up", "power_up"),
      List.of("powering_down"),
      List.of("fail"),
      List.of("maint"),
      List.of("reboot_requested"),
      List.of("cloud"),
      List.of("planned"));

  private final Set<String> wanted;

  private SinfoStates(Set<String> wanted) {
    this.wanted = wanted;
  }

  /**
   * @param list comma-separated names, as {@code -t} takes them
   * @throws UsageException naming the first name no state starts with, and the valid ones
   */
  static SinfoStates parse(String list) {
    Set<String> wanted = new LinkedHashSet<>();
    for (String token : list.split(",")) {
      String t = token.strip().toLowerCase(Locale.ROOT);
      if (t.isEmpty()) {
        continue;
      }
      if (t.equals("all")) {
        NAMES.forEach(n -> wanted.add(n.get(0)));
        continue;
      }
      wanted.add(canonical(t));
    }
    return new SinfoStates(wanted);
  }

  /** sinfo's default for {@code -R}: nodes down, drained or draining, or failed. */
  static SinfoStates forReasons() {
    return parse("down,fail,drain");
  }

  private static String canonical(String token) {
    for (List<String> names : NAMES) {
      for (String n : names) {
        if (n.startsWith(token)) {
          return names.get(0);
        }
      }
    }
    List<String> valid = new ArrayList<>();
    NAMES.forEach(n -> valid.add(n.get(0)));
    throw new UsageException("Bad state string: \"" + token + "\" (valid states: " + String.join(",", valid) + ")");
  }

  boolean includes(NodeInfo n) {
    for (String s : statesOf(n)) {
      if (wanted.contains(s)) {
        return true;
      }
    }
    return false;
  }

  /** The canonical names a node answers to. */
  static List<String> statesOf(NodeInfo n) {
    NodeState state = NodeStates.known(n.state());
    if (state == null) {
      return List.of("unknown");
    }
    int used = n.gpusAllocated() == null ? 0 : n.gpusAllocated();
    return switch (state) {
      case IDLE -> List.of("idle");
      case MIXED -> List.of("mixed");
      case ALLOCATED -> List.of("allocated");
      case DOWN -> List.of("down");
      case DRAINING -> used == 0 ? List.of("drain", "drained", "idle")
          : List.of("drain", "draining", n.gpus() != null && used >= n.gpus() ? "allocated" : "mixed");
      case CLOUD -> List.of("idle", "cloud", "powered_down");
      case POWERING_UP -> List.of("idle", "cloud", "powering_up");
      case POWERING_DOWN -> List.of("idle", "cloud", "powering_down");
    };
  }
}
