package io.squall.cli.service;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Filters for {@code GET /v1/accounting}; lists are sent comma-separated, times as ISO instants.
 *
 * @param start null for the service's default (since midnight today, like sacct)
 * @param end null for now
 */
public record AccountingQuery(
    List<String> users, List<String> accounts, List<String> jobs, List<String> states, Instant start, Instant end) {

  public AccountingQuery {
    users = List.copyOf(users);
    accounts = List.copyOf(accounts);
    jobs = List.copyOf(jobs);
    states = List.copyOf(states);
  }

  Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    JobQuery.put(p, "user", users);
    JobQuery.put(p, "account", accounts);
    JobQuery.put(p, "job", jobs);
    if (start != null) {
      p.put("start", start.toString());
    }
    if (end != null) {
      p.put("end", end.toString());
    }
    JobQuery.put(p, "state", states);
    return p;
  }
}
