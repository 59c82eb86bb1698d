package io.squall.core.schedule;

import java.util.List;

/** The actions one cycle decided, in the order they were decided. */
public record Plan(List<Action> actions) {
  public Plan {
    actions = List.copyOf(actions);
  }

  public <T extends Action> List<T> of(Class<T> type) {
    return actions.stream().filter(type::isInstance).map(type::cast).toList();
  }

  public List<Action.Start> starts() {
    return of(Action.Start.class);
  }

  public List<Action.Wait> waits() {
    return of(Action.Wait.class);
  }
}
