package io.squall.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An advanced reservation, as {@code scontrol create reservation} makes it in Slurm: nodes held
 * from {@code start} to {@code end} for the jobs that name it ({@code --reservation}) and that its
 * users or accounts may submit. Other jobs stay off its nodes for that window; jobs that name it
 * run only on its nodes and within the window, unless it is {@link Flag#FLEX}.
 *
 * @param nodes node names, sorted
 * @param partition the partition its nodes were chosen from, or null
 * @param users who may use it (empty: any user of its accounts)
 * @param accounts whose jobs may use it (empty: any account of its users)
 */
public record Reservation(String name, Instant start, Instant end, List<String> nodes, String partition,
    List<String> users, List<String> accounts, Set<Flag> flags) {
  /** What {@code Duration=UNLIMITED} means in Slurm (reservation.c): a year. */
  public static final Duration UNLIMITED = Duration.ofDays(365);

  /** The flags Squall models, in the order {@code scontrol show reservation} prints them. */
  public enum Flag {
    /** For maintenance: jobs it keeps out wait with "ReqNodeNotAvail, Reserved for maintenance"; may overlap. */
    MAINT,
    /** May overlap other reservations. */
    OVERLAP,
    /** Made without regard to jobs running on its nodes. */
    IGNORE_JOBS,
    /** Its nodes were named (Nodes=), not chosen (NodeCnt=). */
    SPEC_NODES,
    /** Its jobs may start before it, end after it, and use nodes outside it too. */
    FLEX
  }

  public Reservation {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    nodes = List.copyOf(nodes);
    users = List.copyOf(users);
    accounts = List.copyOf(accounts);
    flags = flags.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(flags));
  }

  public boolean has(Flag flag) {
    return flags.contains(flag);
  }

  /** Whether it holds its nodes at {@code t}. */
  public boolean activeAt(Instant t) {
    return !t.isBefore(start) && t.isBefore(end);
  }

  /**
   * Whether a job of this user, charged to this account, may use it. As in Slurm, when both users
   * and accounts are given, a job must match both.
   */
  public boolean admits(String user, String account) {
    boolean userOk = users.isEmpty() || users.contains(user);
    boolean accountOk = accounts.isEmpty() || account != null && accounts.contains(account);
    return userOk && accountOk;
  }

  /** Whether a job that holds resources runs in it. */
  public boolean usedBy(Job job) {
    return name.equals(job.request().placement().reservation());
  }
}
