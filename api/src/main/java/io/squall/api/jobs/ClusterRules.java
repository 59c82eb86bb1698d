package io.squall.api.jobs;

import io.squall.api.config.ClusterLayout;
import io.squall.api.state.ApiException;
import io.squall.api.state.Batch;
import io.squall.api.state.StoredJob;
import io.squall.core.model.Partition;
import io.squall.core.model.Reservation;
import io.squall.core.reserve.ReservationRules;
import io.squall.core.sbatch.Dependency;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.schedule.SubmitLimits;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;

/**
 * What slurmctld checks of a request against the cluster, at submission and at every
 * {@code scontrol update}: its QOS and partitions exist, some partition it may use could ever hold
 * it, and every job it depends on exists. Each refusal is a 400 in Slurm's words.
 */
@Singleton
public final class ClusterRules {
  private final ClusterLayout layout;

  public ClusterRules(ClusterLayout layout) {
    this.layout = layout;
  }

  /** @throws ApiException 400 naming the option and Slurm's reason */
  void check(JobRequest r) {
    if (r.control().qos() != null && !layout.qos().containsKey(r.control().qos())) {
      throw ApiException.badRequest("--qos=" + r.control().qos() + ": Invalid qos specification");
    }
    List<Partition> partitions = layout.partitions();
    for (String p : r.placement().partitions()) {
      if (partitions.stream().noneMatch(x -> x.name().equals(p))) {
        throw ApiException.badRequest("--partition=" + p + ": invalid partition name specified");
      }
    }
    String refusal = SubmitLimits.refusal(r, usable(r), layout::node);
    if (refusal != null) {
      throw ApiException.badRequest(refusal);
    }
  }

  /** The partitions the request may run in: those it names, or the default ones. */
  List<Partition> usable(JobRequest r) {
    List<Partition> partitions = layout.partitions();
    return r.placement().partitions().isEmpty()
        ? partitions.stream().filter(Partition::isDefault).toList()
        : r.placement().partitions().stream().map(n -> partitions.stream().filter(p -> p.name().equals(n)).findFirst()
            .orElseThrow()).toList();
  }

  /**
   * A job may name only a reservation that exists and that its user and account may use; slurmctld
   * refuses it otherwise ("Requested reservation is invalid", "Access denied to requested
   * reservation").
   *
   * @throws ApiException 400 for an unknown reservation, 403 for one the job may not use
   */
  static void checkReservation(List<Reservation> reservations, JobRequest r, String user, String account,
      Instant now) {
    String name = r.placement().reservation();
    if (name == null) {
      return;
    }
    Reservation res = reservations.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
    String refusal = ReservationRules.refusal(res, user, account, now);
    if (refusal == null) {
      return;
    }
    String message = "--reservation=" + name + ": " + refusal;
    if (res == null || !res.end().isAfter(now)) {
      throw ApiException.badRequest(message + " (no such reservation; scontrol show reservation lists them)");
    }
    throw ApiException.forbidden(message + " (user " + user + ", account " + account + ")");
  }

  /**
   * Slurm refuses a dependency on a job it does not know ("Job dependency problem"); as a job can
   * depend only on jobs submitted before it, that also rules out cycles, a job on itself included.
   */
  static void checkDependencies(Batch b, long id, Dependency dependency) {
    if (dependency == null) {
      return;
    }
    for (Dependency.Condition c : dependency.conditions()) {
      if (c.type() == Dependency.Type.SINGLETON) {
        continue;
      }
      if (c.jobId() == id) {
        throw ApiException.badRequest("--dependency=" + c + ": Job dependency problem (job " + id
            + " cannot depend on itself)");
      }
      List<StoredJob> target = c.taskId() == null ? b.jobsNamed(c.jobId()) : b.jobsWithId(c.jobId());
      if (target.isEmpty() || c.taskId() != null && target.stream().noneMatch(j -> j.key().taskId() == null
          ? j.job().pendingTasks().contains(c.taskId()) : c.taskId().equals(j.key().taskId()))) {
        throw ApiException.badRequest("--dependency=" + c + ": Job dependency problem (no job "
            + c.jobId() + (c.taskId() == null ? "" : "_" + c.taskId()) + ")");
      }
    }
  }
}
