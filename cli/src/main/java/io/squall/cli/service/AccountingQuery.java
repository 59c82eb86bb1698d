package io.squall.cli.service;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Filters for {@code GET /v1/accounting}; times are sent as ISO instants. As for
 * {@link JobQuery}, users and states go as comma lists, several accounts are filtered here and
 * several jobs are asked for one by one.
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

  AccountingQuery forJob(String job) {
    return new AccountingQuery(users, accounts, List.of(job), states, start, end);
  }

  Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    JobQuery.list(p, "user", users);
    JobQuery.single(p, "account", accounts);
    JobQuery.single(p, "job", jobs);
    if (start != null) {
      p.put("start", start.toString());
    }
    if (end != null) {
      p.put("end", end.toString());
    }
    JobQuery.list(p, "state", states);
    return p;
  }

  /**
   * Whether a row passes what the service could not filter: several accounts, and a task id
   * ({@code 42_3}), for which the service returns the whole array.
   */
  boolean keeps(AccountingJob j) {
    if (!JobQuery.within(accounts, j.account())) {
      return false;
    }
    return jobs.size() != 1 || !jobs.get(0).contains("_") || jobs.get(0).equals(j.jobId());
  }
}
