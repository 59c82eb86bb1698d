package io.squall.cli;

import io.squall.cli.service.ReservationInfo;
import io.squall.cli.service.ServiceException;
import io.squall.cli.service.SquallClient;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code scontrol create reservation} and {@code scontrol delete reservation}, as scontrol(1)
 * writes them: {@code create reservation ReservationName=maint StartTime=now+1hour Duration=120
 * Nodes=node-[1-4] Users=root Flags=MAINT,IGNORE_JOBS} ({@code NodeCnt=N} and
 * {@code PartitionName=P} instead of {@code Nodes}, {@code EndTime=} instead of {@code Duration},
 * {@code Accounts=}); {@code delete ReservationName=maint} or {@code delete reservation maint}.
 * Keys are read in any case. Times, durations and flags are checked by the service, which reads
 * them as Slurm does (StartTime like {@code --begin}: now[+N units], YYYY-MM-DD[THH:MM[:SS]]...;
 * Duration in minutes, [days-]hh:mm:ss or UNLIMITED).
 */
final class ScontrolReservation {
  /** scontrol's keys for a create and the API's fields. */
  private static final Map<String, String> KEYS = Map.ofEntries(
      Map.entry("reservationname", "name"), Map.entry("reservation", "name"), Map.entry("resv", "name"),
      Map.entry("starttime", "start_time"), Map.entry("endtime", "end_time"), Map.entry("duration", "duration"),
      Map.entry("nodes", "nodes"), Map.entry("nodelist", "nodes"), Map.entry("nodecnt", "node_count"),
      Map.entry("nodecount", "node_count"), Map.entry("partitionname", "partition"),
      Map.entry("partition", "partition"), Map.entry("users", "users"), Map.entry("user", "users"),
      Map.entry("accounts", "accounts"), Map.entry("account", "accounts"), Map.entry("flags", "flags"),
      Map.entry("flag", "flags"));
  /** scontrol's keys Squall does not model: refused, not silently dropped. */
  private static final List<String> NOT_MODELLED = List.of("corecnt", "corecount", "features", "licenses", "tres",
      "burstbuffer", "watts", "groups", "maxstartdelay", "comment", "qos", "allowedpartitions", "skip");

  private final SquallClient client;
  private final Consumer<String> error;
  private final java.io.PrintStream out;

  ScontrolReservation(SquallClient client, Consumer<String> error, java.io.PrintStream out) {
    this.client = client;
    this.error = error;
    this.out = out;
  }

  /** {@code create reservation KEY=VALUE...}; @return scontrol's exit status */
  int create(List<String> words) {
    if (words.isEmpty()) {
      throw new UsageException("create reservation needs a specification: StartTime=... Duration=... Nodes=..."
          + " Users=...");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    for (String word : words) {
      int eq = word.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("Invalid input: " + word + " (write KEY=VALUE)");
      }
      String key = word.substring(0, eq).toLowerCase(Locale.ROOT);
      String value = word.substring(eq + 1);
      String field = KEYS.get(key);
      if (field == null) {
        if (NOT_MODELLED.contains(key)) {
          throw new UsageException(word.substring(0, eq) + " is not supported: Squall reserves whole nodes"
              + " (Nodes= or NodeCnt=) for Users= and Accounts=");
        }
        throw new UsageException("Invalid input: " + word + " (unknown reservation key " + word.substring(0, eq) + ")");
      }
      if (body.containsKey(field)) {
        throw new UsageException("Invalid input: " + word + " (" + word.substring(0, eq) + " given twice)");
      }
      switch (field) {
        case "users", "accounts", "flags" -> body.put(field, Arrays.stream(value.split(",")).map(String::strip)
            .filter(v -> !v.isEmpty()).toList());
        case "node_count" -> body.put(field, nodeCount(word, value));
        default -> body.put(field, value);
      }
    }
    try {
      ReservationInfo made = client.createReservation(body);
      out.println("Reservation created: " + made.name());
      return 0;
    } catch (ServiceException e) {
      if (e.status() == 401) {
        throw e;
      }
      error.accept("Error creating the reservation: " + e.getMessage());
      return 1;
    }
  }

  private static long nodeCount(String word, String value) {
    try {
      long n = Long.parseLong(value.strip());
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException("Invalid node count specified: " + word);
    }
  }

  /**
   * {@code delete ReservationName=NAME} or {@code delete reservation NAME}.
   *
   * @return scontrol's exit status
   */
  int delete(List<String> words) {
    if (words.isEmpty()) {
      throw new UsageException("delete needs ReservationName=NAME (or: delete reservation NAME)");
    }
    String first = words.get(0);
    int eq = first.indexOf('=');
    String name;
    String spec;
    if (eq > 0 && "name".equals(KEYS.get(first.substring(0, eq).toLowerCase(Locale.ROOT))) && words.size() == 1) {
      name = first.substring(eq + 1);
      spec = first;
    } else if (eq < 0 && first.toLowerCase(Locale.ROOT).startsWith("res") && words.size() == 2) {
      name = words.get(1);
      spec = "ReservationName=" + name;
    } else {
      throw new UsageException("Invalid deletion entity: " + String.join(" ", words)
          + " (Squall deletes reservations: ReservationName=NAME)");
    }
    if (name.isEmpty()) {
      throw new UsageException("Invalid input: " + first + " (no reservation name)");
    }
    try {
      client.deleteReservation(name);
      return 0;
    } catch (ServiceException e) {
      if (e.status() == 401) {
        throw e;
      }
      error.accept("delete_reservation " + spec + ": " + e.getMessage());
      return 1;
    }
  }
}
