package io.squall.cli.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Filters for {@code GET /v1/accounting}; times are sent as ISO instants. As for
 * {@link JobQuery}, users and states go as comma lists and several accounts are filtered here.
 * The service takes one job id per request ({@code 42}: the job or every task of array 42, or the
 * task whose own job id is 42; {@code 42_3}: that task), so several are asked for one by one.
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

  /** This query, or with several jobs named one query per job. */
  List<AccountingQuery> perJob() {
    if (jobs.size() <= 1) {
      return List.of(this);
    }
    List<AccountingQuery> queries = new ArrayList<>();
    jobs.forEach(job -> queries.add(new AccountingQuery(users, accounts, List.of(job), states, start, end)));
    return queries;
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

  /** Whether a row passes what the service could not filter: several accounts. */
  boolean keeps(AccountingJob j) {
    return JobQuery.within(accounts, j.account());
  }
}
