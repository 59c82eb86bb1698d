package io.squall.agent;

import io.squall.agent.Protocol.JobSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The jobs this node holds, by job key, from their launch until the controller deletes them and
 * their processes are gone; and which run of each job was deleted last, so that a launch of that
 * run coming later (it was on its way when the delete overtook it) is refused.
 */
final class JobTable {
  /** How many deleted runs are remembered: far more than launches can be on their way at once. */
  private static final int ENDED_KEPT = 10_000;
  private final ConcurrentMap<String, NodeJob> jobs = new ConcurrentHashMap<>();
  /** Deleted, and some of their processes not yet seen to exit: still reported as held. */
  private final ConcurrentMap<String, NodeJob> dying = new ConcurrentHashMap<>();
  /** Guarded by this, as are adds: a job's last deleted run. */
  private final Map<String, Integer> ended = new LinkedHashMap<>() {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
      return size() > ENDED_KEPT;
    }
  };
  /** Guarded by this: once set, nothing more is added. */
  private boolean closed;

  /** A launch that came once the agent began to stop: the job would outlive its agent. */
  static final class Closed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Closed() {
      super("the agent is stopping: it takes no more jobs");
    }
  }

  /** A launch of a run that the controller deleted here before the launch came. */
  static final class Ended extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Ended(String key, int run) {
      super("job " + key + ": run " + run + " was ended here before its launch came");
    }
  }

  /**
   * Adds the job unless its key is already here (launch is idempotent per job).
   *
   * @return the new job, or empty when the key was already present
   * @throws Closed once {@link #close} was called
   * @throws Ended when this run of the job, or a later one, was deleted here
   */
  synchronized Optional<NodeJob> addIfAbsent(JobSpec spec) {
    if (closed) {
      throw new Closed();
    }
    Integer last = ended.get(spec.job());
    if (last != null && spec.run() <= last) {
      throw new Ended(spec.job(), spec.run());
    }
    NodeJob fresh = new NodeJob(spec);
    NodeJob previous = jobs.putIfAbsent(spec.job(), fresh);
    return previous == null ? Optional.of(fresh) : Optional.empty();
  }

  Optional<NodeJob> get(String key) {
    return Optional.ofNullable(jobs.get(key));
  }

  /**
   * Removes the job's run {@code run} or an earlier one ({@code run} null: whichever is held) and
   * remembers that run as ended; the removed job counts as held until its processes are gone. A
   * later run held here is left alone: this delete was overtaken by it.
   *
   * @return the job removed, if any
   */
  synchronized Optional<NodeJob> remove(String key, Integer run) {
    NodeJob held = jobs.get(key);
    int endedRun = run != null ? run : held != null ? held.spec().run() : -1;
    if (endedRun >= 0) {
      ended.merge(key, endedRun, Math::max);
    }
    if (held == null || held.spec().run() > endedRun) {
      return Optional.empty();
    }
    jobs.remove(key);
    dying.put(key, held);
    return Optional.of(held);
  }

  /** Whether a deleted run of the job still has a process alive here. */
  boolean dying(String key) {
    NodeJob job = dying.get(key);
    if (job != null && !job.anyAlive()) {
      dying.remove(key, job);
      return false;
    }
    return job != null;
  }

  /**
   * Keys of the jobs this node holds, sorted: from their launch until the controller deletes them
   * and their processes are gone, so that a job whose script has ended but whose exit the
   * controller has not yet taken is still listed (the controller would otherwise take it for
   * lost), and so is a deleted one still dying (the controller does not start its next run yet).
   */
  List<String> held() {
    TreeSet<String> keys = new TreeSet<>(jobs.keySet());
    for (String key : List.copyOf(dying.keySet())) {
      if (dying(key)) {
        keys.add(key);
      }
    }
    return new ArrayList<>(keys);
  }

  List<NodeJob> all() {
    return new ArrayList<>(jobs.values());
  }

  /**
   * Takes no more jobs from now on, and answers every job held: none added later can escape a
   * caller that kills these (a launch under way when the agent stops, say).
   */
  synchronized List<NodeJob> close() {
    closed = true;
    return all();
  }
}
