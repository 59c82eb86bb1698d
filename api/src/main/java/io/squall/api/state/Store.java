package io.squall.api.state;

import io.micronaut.transaction.TransactionOperations;
import io.squall.api.store.HoldingRepository;
import io.squall.api.store.HoldingRow;
import io.squall.api.store.JobEventRepository;
import io.squall.api.store.JobEventRow;
import io.squall.api.store.JobRepository;
import io.squall.api.store.JobRow;
import io.squall.api.store.JobScriptRepository;
import io.squall.api.store.JobScriptRow;
import io.squall.api.store.NodeRepository;
import io.squall.api.store.NodeRow;
import io.squall.api.store.ReservationRepository;
import io.squall.core.model.JobKey;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Writes a batch in one transaction; the only code that changes the job, node and usage tables after start-up. */
@Singleton
public final class Store {
  private final TransactionOperations<Connection> tx;
  private final JobRepository jobs;
  private final JobScriptRepository scripts;
  private final JobEventRepository events;
  private final NodeRepository nodes;
  private final HoldingRepository holdings;
  private final Rows rows;
  private final UsageStore usage;
  private final ReservationRepository reservations;

  public Store(TransactionOperations<Connection> tx, JobRepository jobs, JobScriptRepository scripts,
      JobEventRepository events, NodeRepository nodes, HoldingRepository holdings, Rows rows, UsageStore usage,
      ReservationRepository reservations) {
    this.reservations = reservations;
    this.usage = usage;
    this.holdings = holdings;
    this.tx = tx;
    this.jobs = jobs;
    this.scripts = scripts;
    this.events = events;
    this.nodes = nodes;
    this.rows = rows;
  }

  /** The stored versions after the commit, by job key and node name. */
  record Versions(Map<JobKey, Long> jobs, Map<String, Long> nodes) {}

  /**
   * Writes everything the batch staged, or nothing.
   *
   * @throws io.micronaut.data.exceptions.OptimisticLockException when a row changed under us:
   *     another controller is writing the same database
   */
  Versions commit(Batch batch) {
    if (!batch.hasWrites()) {
      return new Versions(Map.of(), Map.of());
    }
    return tx.executeWrite(status -> {
      List<JobScriptRow> newScripts = new ArrayList<>();
      batch.submissions().forEach(s -> newScripts.add(rows.submission(s)));
      if (!newScripts.isEmpty()) {
        scripts.saveAll(newScripts);
      }
      List<JobRow> inserts = new ArrayList<>();
      List<JobRow> updates = new ArrayList<>();
      for (StoredJob j : batch.stagedJobs().values()) {
        (j.version() == null ? inserts : updates).add(rows.job(j));
      }
      Map<JobKey, Long> jobVersions = new HashMap<>();
      if (!inserts.isEmpty()) {
        jobs.saveAll(inserts).forEach(r -> jobVersions.put(new JobKey(r.jobId(), r.taskId()), r.version()));
      }
      if (!updates.isEmpty()) {
        jobs.updateAll(updates).forEach(r -> jobVersions.put(new JobKey(r.jobId(), r.taskId()), r.version()));
      }
      for (JobKey gone : batch.removedJobs()) {
        jobs.deleteById(gone.toString());
      }
      Map<String, Long> nodeVersions = new HashMap<>();
      for (NodeStatus n : batch.stagedNodes().values()) {
        if (batch.isDurableNodeChange(n.name())) {
          NodeRow row = rows.node(n);
          nodeVersions.put(n.name(), (n.version() == null ? nodes.save(row) : nodes.update(row)).version());
        }
      }
      recordHoldings(batch);
      batch.removedReservations().forEach(reservations::deleteById);
      batch.addedReservations().forEach(r -> reservations.save(StoredReservations.row(r)));
      if (batch.usage() != batch.committedUsage()) {
        usage.write(batch.committedUsage(), batch.usage());
      }
      List<JobEventRow> eventRows = new ArrayList<>();
      for (Batch.JobEvent e : batch.events()) {
        eventRows.add(new JobEventRow(null, e.job().toString(), e.time(), e.state().name(), e.reason()));
      }
      if (!eventRows.isEmpty()) {
        events.saveAll(eventRows);
      }
      return new Versions(jobVersions, nodeVersions);
    });
  }

  /** Begins and ends the jobs' holds on nodes, at the batch's instant: what their cost is split by. */
  private void recordHoldings(Batch batch) {
    List<HoldingRow> begun = new ArrayList<>();
    for (Batch.HoldingChange c : batch.holdingChanges()) {
      if (c.begins()) {
        begun.add(new HoldingRow(null, c.job().toString(), c.node(), c.share(), batch.now(), null));
      } else {
        for (HoldingRow r : holdings.findByJobKeyAndHeldToIsNull(c.job().toString())) {
          if (r.nodeName().equals(c.node())) {
            holdings.update(new HoldingRow(r.id(), r.jobKey(), r.nodeName(), r.share(), r.heldFrom(), batch.now()));
          }
        }
      }
    }
    if (!begun.isEmpty()) {
      holdings.saveAll(begun);
    }
  }
}
