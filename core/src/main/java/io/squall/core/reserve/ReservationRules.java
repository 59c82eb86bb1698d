package io.squall.core.reserve;

import io.squall.core.model.Job;
import io.squall.core.model.Partition;
import io.squall.core.model.Reservation;
import io.squall.core.sbatch.TimeLimit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * slurmctld's rules for advanced reservations: creation (nodes named or counted, no overlap with
 * another reservation unless MAINT or OVERLAP, no node whose running job would still run when it
 * begins unless IGNORE_JOBS), who may use one, deletion (not while a job runs in it) and the purge
 * of one that ended. Pure: every input is passed in.
 */
public final class ReservationRules {
  /** slurmctld's MAX_RESV_DELAY: a start this far in the past is still taken as now. */
  private static final Duration LATE_START = Duration.ofMinutes(10);

  private ReservationRules() {}

  /**
   * What {@code scontrol create reservation} asks for.
   *
   * @param name null to have one made from the first user or account
   * @param end null when only a duration was given (then {@code duration} is set)
   * @param duration null when an end time was given
   * @param nodes the named nodes (expanded), or null; {@code ["ALL"]} for every node
   * @param nodeCount how many nodes to choose, or null
   * @param partition where to choose them from (null: the default partition), or null
   */
  public record Draft(String name, Instant start, Instant end, Duration duration, List<String> nodes,
      Integer nodeCount, String partition, List<String> users, List<String> accounts, Set<Reservation.Flag> flags) {
    public Draft {
      users = users == null ? List.of() : List.copyOf(users);
      accounts = accounts == null ? List.of() : List.copyOf(accounts);
      flags = flags == null || flags.isEmpty() ? Set.of() : Set.copyOf(flags);
    }
  }

  /**
   * The reservation the draft makes, or why not.
   *
   * @param nodeNames every configured node
   * @param holding the jobs that hold nodes now
   * @throws ReservationException in Slurm's words, saying what was wrong
   */
  public static Reservation create(Draft d, List<String> nodeNames, List<Partition> partitions,
      List<Reservation> existing, List<Job> holding, Instant now) {
    if (d.users().isEmpty() && d.accounts().isEmpty()) {
      throw new ReservationException("Either Users or Accounts must be specified. No reservation created.");
    }
    if (d.end() == null && d.duration() == null) {
      throw new ReservationException("Duration or EndTime must be specified. No reservation created.");
    }
    if (d.nodes() == null && d.nodeCount() == null) {
      throw new ReservationException("Nodes or NodeCnt must be specified. No reservation created.");
    }
    Instant start = d.start() == null ? now : d.start();
    if (start.isBefore(now.minus(LATE_START))) {
      throw new ReservationException("Invalid time specified (StartTime=" + start + " is in the past)");
    }
    if (start.isBefore(now)) {
      start = now;
    }
    Instant end = d.end() != null ? d.end() : start.plus(d.duration());
    if (!end.isAfter(start)) {
      throw new ReservationException("Invalid time specified (EndTime must be after StartTime)");
    }
    String name = d.name() != null ? d.name() : generatedName(d, existing);
    if (existing.stream().anyMatch(r -> r.name().equals(name))) {
      throw new ReservationException("Duplicate reservation name (" + name + ")");
    }
    Partition partition = null;
    if (d.partition() != null) {
      partition = partitions.stream().filter(p -> p.name().equals(d.partition())).findFirst()
          .orElseThrow(() -> new ReservationException("Invalid partition name specified (" + d.partition() + ")"));
    } else if (d.nodes() == null || isAll(d.nodes())) {
      partition = partitions.stream().filter(Partition::isDefault).findFirst().orElse(null);
    }
    Set<Reservation.Flag> flags = EnumSet.noneOf(Reservation.Flag.class);
    flags.addAll(d.flags());
    boolean overlapAllowed = flags.contains(Reservation.Flag.MAINT) || flags.contains(Reservation.Flag.OVERLAP);
    boolean ignoreJobs = flags.contains(Reservation.Flag.IGNORE_JOBS);
    Instant from = start;
    Instant to = end;
    List<Reservation> overlapping = existing.stream()
        .filter(r -> r.start().isBefore(to) && from.isBefore(r.end())).toList();
    List<String> chosen;
    if (d.nodes() != null) {
      flags.add(Reservation.Flag.SPEC_NODES);
      chosen = named(d.nodes(), nodeNames, d.partition() == null ? null : partition);
      if (!overlapAllowed) {
        for (Reservation r : overlapping) {
          if (r.nodes().stream().anyMatch(chosen::contains)) {
            throw new ReservationException("Requested reservation overlaps with another reservation ("
                + r.name() + " holds " + common(r.nodes(), chosen) + " from " + r.start() + " to " + r.end() + ")");
          }
        }
      }
      if (!ignoreJobs) {
        List<String> busy = chosen.stream().filter(n -> busyAt(n, from, holding, partitions)).toList();
        if (!busy.isEmpty()) {
          throw new ReservationException("Requested nodes are busy (" + String.join(",", busy)
              + " run jobs that may still run at StartTime; Flags=IGNORE_JOBS reserves them anyway)");
        }
      }
    } else {
      if (d.nodeCount() < 1) {
        throw new ReservationException("Invalid node count specified (NodeCnt=" + d.nodeCount() + ")");
      }
      if (partition == null) {
        throw new ReservationException("Requested node configuration is not available (no PartitionName and no"
            + " default partition to choose NodeCnt nodes from)");
      }
      List<String> candidates = new ArrayList<>(new TreeSet<>(partition.nodes()));
      candidates.retainAll(nodeNames);
      if (d.nodeCount() > candidates.size()) {
        throw new ReservationException("Requested node configuration is not available (NodeCnt="
            + d.nodeCount() + ", partition " + partition.name() + " has " + candidates.size() + " nodes)");
      }
      Set<String> taken = new HashSet<>();
      if (!overlapAllowed) {
        overlapping.forEach(r -> taken.addAll(r.nodes()));
      }
      chosen = new ArrayList<>();
      for (String n : candidates) {
        if (chosen.size() < d.nodeCount() && !taken.contains(n) && (ignoreJobs || !busyAt(n, from, holding, partitions))) {
          chosen.add(n);
        }
      }
      if (chosen.size() < d.nodeCount()) {
        throw new ReservationException("Requested nodes are busy (only " + chosen.size() + " of partition "
            + partition.name() + "'s nodes are free of other reservations and of jobs that may still run at"
            + " StartTime; NodeCnt=" + d.nodeCount() + ")");
      }
    }
    return new Reservation(name, start, end, chosen, partition == null ? null : partition.name(), d.users(),
        d.accounts(), flags);
  }

  private static boolean isAll(List<String> nodes) {
    return nodes.size() == 1 && nodes.get(0).equalsIgnoreCase("ALL");
  }

  private static List<String> named(List<String> asked, List<String> nodeNames, Partition partition) {
    if (isAll(asked)) {
      List<String> all = new ArrayList<>(new TreeSet<>(partition == null ? nodeNames : partition.nodes()));
      all.retainAll(nodeNames);
      return all;
    }
    Set<String> known = new HashSet<>(nodeNames);
    TreeSet<String> out = new TreeSet<>();
    for (String n : asked) {
      if (!known.contains(n)) {
        throw new ReservationException("Invalid node name specified (" + n + ")");
      }
      out.add(n);
    }
    return new ArrayList<>(out);
  }

  private static String common(List<String> a, List<String> b) {
    return String.join(",", a.stream().filter(b::contains).toList());
  }

  /** Whether a job on the node may still run at {@code start}: its time limit ends later. */
  private static boolean busyAt(String node, Instant start, List<Job> holding, List<Partition> partitions) {
    for (Job j : holding) {
      if (j.allocation().stream().noneMatch(g -> g.node().equals(node))) {
        continue;
      }
      Partition p = partitions.stream().filter(x -> x.name().equals(j.partition())).findFirst().orElse(null);
      int limit = p == null ? TimeLimit.UNLIMITED : p.timeLimitMinutes(j.request().timing().timeLimitMinutes());
      if (limit == TimeLimit.UNLIMITED || j.startTime() == null
          || j.startTime().plusSeconds(limit * 60L).isAfter(start)) {
        return true;
      }
    }
    return false;
  }

  /** Slurm's made-up name: the first user (else account) and a number not taken yet. */
  private static String generatedName(Draft d, List<Reservation> existing) {
    String base = d.users().isEmpty() ? d.accounts().get(0) : d.users().get(0);
    Set<String> names = new HashSet<>();
    existing.forEach(r -> names.add(r.name()));
    int n = existing.size() + 1;
    while (names.contains(base + "_" + n)) {
      n++;
    }
    return base + "_" + n;
  }

  /**
   * Why a job may not be submitted to the reservation, in slurmctld's words; null when it may.
   *
   * @param r the reservation it names, null when there is none by that name
   */
  public static String refusal(Reservation r, String user, String account, Instant now) {
    if (r == null || !r.end().isAfter(now)) {
      return "Requested reservation is invalid";
    }
    if (!r.admits(user, account)) {
      return "Access denied to requested reservation";
    }
    return null;
  }

  /** Whether a job runs in the reservation: Slurm refuses to delete it then ("Requested reservation is in use"). */
  public static boolean inUse(Reservation r, List<Job> holding) {
    return holding.stream().anyMatch(r::usedBy);
  }

  /**
   * The reservations to purge at {@code now}: those that ended, once no job runs in them any more
   * (the cycle ends their jobs at the reservation's end).
   */
  public static List<Reservation> ended(List<Reservation> reservations, List<Job> holding, Instant now) {
    return reservations.stream().filter(r -> !r.end().isAfter(now) && !inUse(r, holding)).toList();
  }
}
