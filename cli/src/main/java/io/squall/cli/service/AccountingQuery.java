package io.squall.cli.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Filters for {@code GET /v1/accounting}; times are sent as ISO instants. As for
 * {@link JobQuery}, users and states go as comma lists and several accounts are filtered here.
 * The service takes one job and answers a task id ({@code 42_3}) with the whole array, so jobs of
 * different arrays are asked for one by one and named tasks are picked out here.
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

  /** This query, or with jobs of several jobs or arrays named one query per job or array. */
  List<AccountingQuery> perArray() {
    Map<String, List<String>> byArray = new LinkedHashMap<>();
    jobs.forEach(job -> byArray.computeIfAbsent(arrayId(job), k -> new ArrayList<>()).add(job));
    if (byArray.size() <= 1) {
      return List.of(this);
    }
    List<AccountingQuery> queries = new ArrayList<>();
    byArray.values().forEach(ids -> queries.add(new AccountingQuery(users, accounts, ids, states, start, end)));
    return queries;
  }

  Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    JobQuery.list(p, "user", users);
    JobQuery.single(p, "account", accounts);
    if (!jobs.isEmpty() && perArray().size() == 1) {
      p.put("job", jobs.get(0)); // any of them names the same job or array
    }
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
   * Whether a row passes what the service could not filter: several accounts, and task ids
   * ({@code 42_3}), for which the service returns the whole array. A job id without a task
   * ({@code 42}) keeps the whole array.
   */
  boolean keeps(AccountingJob j) {
    if (!JobQuery.within(accounts, j.account())) {
      return false;
    }
    return jobs.isEmpty() || jobs.contains(j.jobId()) || j.jobId() != null && jobs.contains(arrayId(j.jobId()));
  }

  /** {@code 42} for {@code 42_3}; a job id without a task is its own. */
  private static String arrayId(String job) {
    int u = job.indexOf('_');
    return u < 0 ? job : job.substring(0, u);
  }
}
