package io.squall.cli.service;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Filters for {@code GET /v1/jobs}; an empty list means no filter. The service takes comma lists
 * of states and users but one account, partition, name and job per request, so with several of
 * those the account, partition and name filters are applied here and jobs are asked for one by
 * one ({@link SquallClient#jobs}).
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

  /** This query, or with several jobs named one query per job (the service takes one). */
  List<JobQuery> perJob() {
    if (jobs.size() <= 1) {
      return List.of(this);
    }
    List<JobQuery> queries = new ArrayList<>();
    jobs.forEach(job -> queries.add(new JobQuery(states, users, accounts, partitions, names, List.of(job))));
    return queries;
  }

  Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    list(p, "state", states);
    list(p, "user", users);
    single(p, "account", accounts);
    single(p, "partition", partitions);
    single(p, "name", names);
    single(p, "job", jobs);
    return p;
  }

  /** Whether a listed job passes the filters the service could not apply (several values). */
  boolean keeps(JobInfo j) {
    return within(accounts, j.account()) && within(names, j.name()) && anyWithin(partitions, j.partition());
  }

  /** The fields {@link #keeps} reads: those of the filters with several values. */
  List<String> fieldsKept() {
    List<String> fields = new ArrayList<>();
    if (accounts.size() > 1) {
      fields.add("account");
    }
    if (names.size() > 1) {
      fields.add("name");
    }
    if (partitions.size() > 1) {
      fields.add("partition");
    }
    return fields;
  }

  static void list(Map<String, String> p, String key, List<String> values) {
    if (!values.isEmpty()) {
      p.put(key, String.join(",", values));
    }
  }

  static void single(Map<String, String> p, String key, List<String> values) {
    if (values.size() == 1) {
      p.put(key, values.get(0));
    }
  }

  static boolean within(List<String> values, String value) {
    return values.size() <= 1 || values.contains(value);
  }

  /** A pending job may name several partitions ({@code gpu,cpu}); any one of them matches. */
  private static boolean anyWithin(List<String> values, String value) {
    if (values.size() <= 1) {
      return true;
    }
    List<String> parts = value == null ? List.of() : new ArrayList<>(List.of(value.split(",")));
    return parts.stream().anyMatch(Set.copyOf(values)::contains);
  }
}
