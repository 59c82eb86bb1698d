package io.squall.core.provision;

import io.squall.core.provider.Instance;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a controller does with the provider's instances when it starts, so that no instance runs
 * unaccounted: the provider's list (by cluster tag) is the truth about what exists, the recorded
 * launch intents and instances are the truth about what was meant.
 *
 * <ul>
 *   <li>an instance the controller recorded, or one made by a recorded intent, is adopted when
 *       its node still wants it (powering up or up);
 *   <li>any other instance is an orphan and is terminated;
 *   <li>an intent without instances whose nodes still wait is retried with its own idempotency
 *       token (a launch that did happen is then returned, not repeated); otherwise it is dropped.
 * </ul>
 */
public final class Reconciliation {
  private Reconciliation() {}

  /**
   * @param recorded instance id → node, as the controller recorded them
   * @param intents unfinished intents: token → their nodes
   * @param waiting nodes that still wait to be launched (POWERING_UP) or are up
   */
  public static Result reconcile(List<Instance> listed, Map<String, String> recorded, Map<String, List<String>> intents,
      Set<String> waiting) {
    List<Instance> adopt = new ArrayList<>();
    List<Instance> orphans = new ArrayList<>();
    Set<String> tokensSeen = new java.util.HashSet<>();
    for (Instance i : listed) {
      boolean known = i.nodeName() != null && i.nodeName().equals(recorded.get(i.id()));
      boolean intended = i.launchToken() != null && intents.containsKey(i.launchToken())
          && intents.get(i.launchToken()).contains(i.nodeName());
      // Even a recorded instance goes when its node no longer wants it (a crash mid-suspend).
      if ((known || intended) && waiting.contains(i.nodeName())) {
        adopt.add(i);
        tokensSeen.add(i.launchToken());
      } else {
        orphans.add(i);
      }
    }
    List<String> retry = new ArrayList<>();
    List<String> drop = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : new java.util.TreeMap<>(intents).entrySet()) {
      if (tokensSeen.contains(e.getKey())) {
        continue;
      }
      if (waiting.containsAll(e.getValue())) {
        retry.add(e.getKey());
      } else {
        drop.add(e.getKey());
      }
    }
    return new Result(adopt, orphans, retry, drop);
  }

  /** Instances to adopt and to terminate, intents (by token) to retry and to drop. */
  public record Result(List<Instance> adopt, List<Instance> orphans, List<String> retry, List<String> drop) {}
}
