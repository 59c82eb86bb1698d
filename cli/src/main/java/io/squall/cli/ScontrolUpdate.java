package io.squall.cli;

import io.squall.cli.service.ServiceException;
import io.squall.cli.service.SquallClient;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code scontrol update}, as scontrol(1) writes it: {@code JobId=42 TimeLimit=1:00:00
 * Partition=gpu QOS=high NumNodes=2 Dependency=afterok:41 Nice=10 Priority=100
 * ReservationName=maint} (also
 * {@code TimeLimit+=30} and {@code TimeLimit-=30}; {@code JobId} takes a list), or
 * {@code NodeName=node-[1-2] State=DRAIN Reason="bad disk"} and {@code State=RESUME}. Keys are
 * read in any case; anything else is refused before the service is asked.
 */
final class ScontrolUpdate {
  /** The job keys and the update fields they set (docs/rest-api.md). */
  private static final Map<String, String> JOB_FIELDS = Map.of("timelimit", "time_limit", "partition", "partition",
      "qos", "qos", "numnodes", "num_nodes", "dependency", "dependency", "nice", "nice", "priority", "priority",
      "reservationname", "reservation", "reservation", "reservation");

  private final SquallClient client;
  private final Consumer<String> error;

  ScontrolUpdate(SquallClient client, Consumer<String> error) {
    this.client = client;
    this.error = error;
  }

  /** @return scontrol's exit status: 1 when any job or node was not updated */
  int run(List<String> words) {
    if (words.isEmpty()) {
      throw new UsageException("update needs a specification: JobId=ID ... or NodeName=NODES State=...");
    }
    String jobs = null;
    String nodes = null;
    Map<String, String> fields = new LinkedHashMap<>();
    String state = null;
    String reason = null;
    for (String word : words) {
      int eq = word.indexOf('=');
      String key = (eq < 0 ? word : word.substring(0, eq)).toLowerCase(Locale.ROOT);
      String value = eq < 0 ? null : word.substring(eq + 1);
      switch (key) {
        case "jobid", "job" -> jobs = required(word, value);
        case "nodename", "node" -> nodes = required(word, value);
        case "state" -> state = required(word, value);
        case "reason" -> reason = required(word, value);
        case "timelimit+", "timelimit-" -> fields.put("time_limit_delta", key.charAt(key.length() - 1)
            + required(word, value));
        case "nice" -> fields.put("nice", value == null ? "100" : value); // scontrol(1): "Default value is 100"
        default -> {
          String field = JOB_FIELDS.get(key);
          if (field == null) {
            throw new UsageException("Update of this parameter is not supported: " + word);
          }
          fields.put(field, required(word, value));
        }
      }
    }
    if (jobs != null && nodes == null && state == null && reason == null) {
      return jobs(JobIds.expand(List.of(jobs)), fields);
    }
    if (nodes != null && jobs == null && fields.isEmpty()) {
      return nodes(nodes, state, reason);
    }
    throw new UsageException("update takes JobId=ID with job fields (TimeLimit, Partition, QOS, NumNodes,"
        + " Dependency, Nice, Priority, ReservationName) or NodeName=NODES with State= and Reason=");
  }

  private int jobs(List<String> ids, Map<String, String> fields) {
    if (fields.isEmpty()) {
      throw new UsageException("No changes specified");
    }
    return each(ids, id -> client.update(id, fields));
  }

  private int nodes(String names, String state, String reason) {
    if (state == null) {
      throw new UsageException("No changes specified (Squall's scontrol updates a node's State, DRAIN or RESUME)");
    }
    String s = state.toUpperCase(Locale.ROOT);
    boolean drain = s.equals("DRAIN");
    if (!drain && !s.equals("RESUME") && !s.equals("UNDRAIN")) {
      throw new UsageException("Invalid node state specified: " + state + " (Squall takes DRAIN and RESUME)");
    }
    if (drain && (reason == null || reason.isBlank())) {
      throw new UsageException("You must specify a reason when DOWNING or DRAINING a node. Request denied");
    }
    List<String> list;
    try {
      list = Hostlist.expand(names);
    } catch (HostlistException e) {
      throw new UsageException("invalid hostlist: " + e.getMessage());
    }
    return each(list, node -> {
      if (drain) {
        client.drain(node, reason);
      } else {
        client.resume(node);
      }
    });
  }

  /**
   * Updates every target in turn, as scontrol does: one the service refuses is reported and the
   * rest are still updated, except when the token itself is refused (401), which no other would pass.
   *
   * @return 1 when any target was not updated
   */
  private int each(List<String> targets, Consumer<String> update) {
    int failures = 0;
    for (String target : targets) {
      try {
        update.accept(target);
      } catch (ServiceException e) {
        if (e.status() == 401) {
          throw e;
        }
        failures++;
        error.accept(e.getMessage());
      }
    }
    return failures == 0 ? 0 : 1;
  }

  private static String required(String word, String value) {
    if (value == null) {
      throw new UsageException("Invalid input: " + word + " (write KEY=VALUE)");
    }
    return value;
  }
}
