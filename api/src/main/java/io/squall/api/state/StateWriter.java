package io.squall.api.state;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpStatus;
import io.squall.api.simulate.ServiceConfig;
import jakarta.annotation.PreDestroy;
import java.time.InstantSource;
import io.squall.core.model.JobKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer: one thread applies every change to the cluster state, in arrival order, and
 * makes each group of changes durable in one transaction before anyone sees it (group commit).
 * A caller's future completes only after its change is committed, so an acknowledged submission
 * is never lost; side effects (agent calls) start only after the commit.
 */
@Context
@Requires(notEnv = ServiceConfig.ENVIRONMENT) // squall simulate reads the configuration only
public final class StateWriter {
  private static final Logger LOG = LoggerFactory.getLogger(StateWriter.class);
  /** Enough to amortize a commit over a burst of submissions, small enough to keep latency low. */
  private static final int MAX_BATCH = 256;

  /**
   * A change to the cluster state, run on the writer thread. It must check everything that can
   * refuse it (throwing {@link ApiException}) before it stages anything in the batch.
   */
  @FunctionalInterface
  public interface Change<T> {
    T apply(Batch batch);
  }

  private record Pending(Change<?> change, Function<ClusterState, ?> query, CompletableFuture<Object> result) {}

  private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
  private final ClusterState state;
  private final Store store;
  private final InstantSource clock;
  // One thread: side effects run in commit order (a requeued job's clean-up before its relaunch).
  private final ExecutorService effects = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "squall-effects");
    t.setDaemon(true);
    return t;
  });
  private final Thread thread;
  private volatile boolean running = true;
  private long nextJobId;

  public StateWriter(StateLoader loader, Store store, InstantSource clock) {
    StateLoader.Loaded loaded = loader.load();
    this.state = loaded.state();
    this.nextJobId = loaded.nextJobId();
    this.store = store;
    this.clock = clock;
    this.thread = new Thread(this::run, "squall-state-writer");
    thread.setDaemon(true);
    thread.start();
  }

  /** The committed state, for readers. */
  public ClusterState state() {
    return state;
  }

  /** Applies a change; the future completes once it is durable (or fails with its ApiException). */
  @SuppressWarnings("unchecked")
  public <T> CompletableFuture<T> write(Change<T> change) {
    CompletableFuture<Object> f = new CompletableFuture<>();
    enqueue(new Pending(change, null, f));
    return (CompletableFuture<T>) (CompletableFuture<?>) f;
  }

  /** Reads the committed state between two batches: a consistent view across many jobs. */
  @SuppressWarnings("unchecked")
  public <T> CompletableFuture<T> read(Function<ClusterState, T> query) {
    CompletableFuture<Object> f = new CompletableFuture<>();
    enqueue(new Pending(null, query, f));
    return (CompletableFuture<T>) (CompletableFuture<?>) f;
  }

  /**
   * Removes the jobs {@code choose} picks from the committed state, on the writer thread between two
   * batches: memory only, their rows stay (finished jobs past MinJobAge, see {@link JobPurge}).
   *
   * @return how many were removed
   */
  public CompletableFuture<Integer> forget(Function<ClusterState, Collection<JobKey>> choose) {
    return read(s -> {
      Collection<JobKey> keys = choose.apply(s);
      keys.forEach(s::removeJob);
      return keys.size();
    });
  }

  private void enqueue(Pending p) {
    if (!running) {
      p.result().completeExceptionally(new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "the controller is stopping"));
      return;
    }
    queue.add(p);
  }

  private void run() {
    List<Pending> drained = new ArrayList<>();
    while (running || !queue.isEmpty()) {
      try {
        Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        drained.add(first);
        queue.drainTo(drained, MAX_BATCH - 1);
        process(drained);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        LOG.error("state writer: unexpected failure", e);
      } finally {
        drained.clear();
      }
    }
  }

  private void process(List<Pending> drained) {
    List<Pending> changes = new ArrayList<>();
    List<Pending> queries = new ArrayList<>();
    drained.forEach(p -> (p.change() == null ? queries : changes).add(p));
    if (!changes.isEmpty() && !commitTogether(changes)) {
      // One change broke the group (a value the database refused, a bug): commit each on its own so
      // that only the change at fault fails and everyone else's goes through.
      LOG.warn("a group commit of {} changes failed; committing them one by one", changes.size());
      for (Pending p : changes) {
        commitTogether(List.of(p));
      }
    }
    for (Pending q : queries) {
      try {
        q.result().complete(q.query().apply(state));
      } catch (RuntimeException e) {
        q.result().completeExceptionally(e);
      }
    }
  }

  /**
   * Applies the changes to one batch and commits it; completes their futures unless the group as
   * a whole failed. A lone change that fails is answered with a 503 that says nothing of the cause
   * (it may hold SQL and other users' data): the log has it.
   *
   * @return false when the group failed and nothing of it was committed or answered
   */
  private boolean commitTogether(List<Pending> changes) {
    boolean alone = changes.size() == 1;
    Batch batch = new Batch(state, clock.instant(), nextJobId);
    List<Object> results = new ArrayList<>(changes.size());
    for (Pending p : changes) {
      try {
        results.add(p.change().apply(batch));
      } catch (ApiException e) {
        results.add(e);
      } catch (RuntimeException e) {
        // A change failed after staging part of its work: commit none of this batch.
        LOG.error("a change failed; its batch of {} is not committed", changes.size(), e);
        if (alone) {
          failAll(changes, new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "internal error; nothing was changed"));
        }
        return false;
      }
    }
    try {
      publish(batch, store.commit(batch));
    } catch (RuntimeException e) {
      LOG.error("commit failed; the batch of {} is not committed", changes.size(), e);
      if (alone) {
        failAll(changes, new ApiException(HttpStatus.SERVICE_UNAVAILABLE,
            "the state store refused the change; nothing was changed"));
      }
      return false;
    }
    nextJobId = batch.nextJobId();
    for (Runnable hook : batch.commitHooks()) {
      try {
        hook.run();
      } catch (RuntimeException e) {
        LOG.warn("commit hook failed", e);
      }
    }
    for (int i = 0; i < changes.size(); i++) {
      if (results.get(i) instanceof ApiException e) {
        changes.get(i).result().completeExceptionally(e);
      } else {
        changes.get(i).result().complete(results.get(i));
      }
    }
    for (Runnable effect : batch.effects()) {
      effects.execute(() -> {
        try {
          effect.run();
        } catch (RuntimeException e) {
          LOG.warn("side effect failed", e);
        }
      });
    }
    return true;
  }

  private void publish(Batch batch, Store.Versions versions) {
    batch.removedJobs().forEach(state::removeJob);
    for (StoredJob j : batch.stagedJobs().values()) {
      Long v = versions.jobs().get(j.key());
      state.publishJob(v == null ? j : j.withVersion(v));
    }
    for (Map.Entry<String, NodeStatus> e : batch.stagedNodes().entrySet()) {
      Long v = versions.nodes().get(e.getKey());
      state.publishNode(v == null ? e.getValue() : e.getValue().withVersion(v));
    }
    // Pending jobs get the scheduler's reason; configuring ones the fleet's (what their nodes wait for).
    batch.notes().forEach((key, note) -> {
      StoredJob j = state.job(key);
      if (j != null && (j.job().state() == io.squall.core.model.JobState.PENDING
          || j.job().state() == io.squall.core.model.JobState.CONFIGURING)) {
        state.publishJob(j.withReason(note.reason(), note.expectedStart()));
      }
    });
    state.publishUsage(batch.usage());
    if (batch.changedReservations()) {
      state.publishReservations(batch.reservations());
    }
  }

  private static void failAll(List<Pending> drained, ApiException e) {
    drained.forEach(p -> p.result().completeExceptionally(e));
  }

  @PreDestroy
  public void close() throws InterruptedException {
    running = false;
    thread.join(10_000);
    // Effects still queued would act on a stopping context; a restarted controller redoes what matters.
    effects.shutdownNow();
    effects.awaitTermination(5, TimeUnit.SECONDS);
  }
}
