package io.squall.cli.service;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Filters for {@code GET /v1/jobs}. Each filter is a list sent comma-separated, as the documented
 * {@code state=PENDING,RUNNING}; an empty list sends nothing (no filter).
 */
public record JobQuery(
    List<String> states, List<String> users, List<String> accounts, List<String> partitions,
    List<String> names, List<String> jobs) {

  public JobQuery {
    states = List.copyOf(states);
    users = List.copyOf(users);
    accounts = List.copyOf(accounts);
    partitions = List.copyOf(partitions);
    names = List.copyOf(names);
    jobs = List.copyOf(jobs);
  }

  public static JobQuery all() {
    return new JobQuery(List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
  }

  Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    put(p, "state", states);
    put(p, "user", users);
    put(p, "account", accounts);
    put(p, "partition", partitions);
    put(p, "name", names);
    put(p, "job", jobs);
    return p;
  }

  static void put(Map<String, String> p, String key, List<String> values) {
    if (!values.isEmpty()) {
      p.put(key, String.join(",", values));
    }
  }
}
