package io.squall.api.state;

import io.micronaut.transaction.TransactionOperations;
import io.squall.api.store.UsageFigureRepository;
import io.squall.api.store.UsageFigureRow;
import io.squall.api.store.UsageLedgerRepository;
import io.squall.api.store.UsageLedgerRow;
import io.squall.api.store.UsageWatermarkRepository;
import io.squall.api.store.UsageWatermarkRow;
import io.squall.core.model.JobKey;
import io.squall.core.model.UsageLedger;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The fair-share ledger in the database: its decay instant, its figures (usage_figures rows named
 * {@code association:ACCOUNT/USER} for billed TRES-seconds, {@code association-gpus:ACCOUNT/USER}
 * and {@code qos:NAME} for GPU-seconds) and the running jobs' watermarks. Only what changed between two ledgers is written, so a job's end writes a row or
 * two, and only a PriorityCalcPeriod rewrites every figure.
 */
@Singleton
public final class UsageStore {
  private static final String ASSOCIATION = "association:";
  private static final String ASSOCIATION_GPUS = "association-gpus:";
  private static final String QOS = "qos:";

  private final UsageLedgerRepository ledgers;
  private final UsageFigureRepository figures;
  private final UsageWatermarkRepository watermarks;
  private final TransactionOperations<Connection> tx;

  public UsageStore(UsageLedgerRepository ledgers, UsageFigureRepository figures, UsageWatermarkRepository watermarks,
      TransactionOperations<Connection> tx) {
    this.ledgers = ledgers;
    this.figures = figures;
    this.watermarks = watermarks;
    this.tx = tx;
  }

  /** The stored ledger, decaying with {@code halfLife}; empty when none was ever stored. */
  Optional<UsageLedger> load(Duration halfLife) {
    return ledgers.findById(UsageLedgerRow.ONLY).map(row -> {
      Map<String, Double> byAssociation = new TreeMap<>();
      Map<String, Double> gpusByAssociation = new TreeMap<>();
      Map<String, Double> byQos = new TreeMap<>();
      for (UsageFigureRow f : figures.findAll()) {
        if (f.figure().startsWith(ASSOCIATION)) {
          byAssociation.put(f.figure().substring(ASSOCIATION.length()), f.amount());
        } else if (f.figure().startsWith(ASSOCIATION_GPUS)) {
          gpusByAssociation.put(f.figure().substring(ASSOCIATION_GPUS.length()), f.amount());
        } else if (f.figure().startsWith(QOS)) {
          byQos.put(f.figure().substring(QOS.length()), f.amount());
        }
      }
      Map<JobKey, Instant> charged = new TreeMap<>();
      watermarks.findAll().forEach(w -> charged.put(JobKey.parse(w.jobKey()), w.chargedUntil()));
      return new UsageLedger(row.decayedAt(), halfLife, byAssociation, gpusByAssociation, byQos, charged);
    });
  }

  /** Stores a ledger where none was: the first start on a database without one. */
  void create(UsageLedger ledger) {
    tx.executeWrite(status -> {
      write(UsageLedger.empty(Instant.EPOCH, ledger.halfLife()), ledger);
      return null;
    });
  }

  /** Writes what changed from {@code was} (what is stored) to {@code is}, within the caller's transaction. */
  void write(UsageLedger was, UsageLedger is) {
    if (!was.asOf().equals(is.asOf())) {
      UsageLedgerRow row = new UsageLedgerRow(UsageLedgerRow.ONLY, is.asOf());
      if (ledgers.existsById(UsageLedgerRow.ONLY)) {
        ledgers.update(row);
      } else {
        ledgers.save(row);
      }
    }
    Changes<UsageFigureRow> f = new Changes<>();
    f.between(prefixed(ASSOCIATION, was.byAssociation()), prefixed(ASSOCIATION, is.byAssociation()),
        UsageFigureRow::new);
    f.between(prefixed(ASSOCIATION_GPUS, was.associationGpuSeconds()),
        prefixed(ASSOCIATION_GPUS, is.associationGpuSeconds()), UsageFigureRow::new);
    f.between(prefixed(QOS, was.qosGpuSeconds()), prefixed(QOS, is.qosGpuSeconds()), UsageFigureRow::new);
    f.apply(figures::saveAll, figures::updateAll, figures::deleteAll);
    Changes<UsageWatermarkRow> w = new Changes<>();
    w.between(keyed(was.chargedUntil()), keyed(is.chargedUntil()), UsageWatermarkRow::new);
    w.apply(watermarks::saveAll, watermarks::updateAll, watermarks::deleteAll);
  }

  private static Map<String, Double> prefixed(String prefix, Map<String, Double> figures) {
    Map<String, Double> out = new TreeMap<>();
    figures.forEach((k, v) -> out.put(prefix + k, v));
    return out;
  }

  private static Map<String, Instant> keyed(Map<JobKey, Instant> charged) {
    Map<String, Instant> out = new TreeMap<>();
    charged.forEach((k, v) -> out.put(k.toString(), v));
    return out;
  }

  /** Rows to insert, update and delete to go from one map to another. */
  private static final class Changes<R> {
    final List<R> inserts = new ArrayList<>();
    final List<R> updates = new ArrayList<>();
    final List<R> deletes = new ArrayList<>();

    <V> void between(Map<String, V> was, Map<String, V> is, BiFunction<String, V, R> row) {
      is.forEach((k, v) -> {
        V before = was.get(k);
        if (before == null) {
          inserts.add(row.apply(k, v));
        } else if (!Objects.equals(before, v)) {
          updates.add(row.apply(k, v));
        }
      });
      was.forEach((k, v) -> {
        if (!is.containsKey(k)) {
          deletes.add(row.apply(k, v));
        }
      });
    }

    void apply(Function<List<R>, ?> insert, Function<List<R>, ?> update, Consumer<List<R>> delete) {
      if (!deletes.isEmpty()) {
        delete.accept(deletes);
      }
      if (!inserts.isEmpty()) {
        insert.apply(inserts);
      }
      if (!updates.isEmpty()) {
        update.apply(updates);
      }
    }
  }
}
