package io.squall.agent;

import io.squall.agent.Protocol.JobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** The jobs this node holds, by job key, from their launch until the controller deletes them. */
final class JobTable {
  private final ConcurrentMap<String, NodeJob> jobs = new ConcurrentHashMap<>();

  /**
   * Adds the job unless its key is already here (launch is idempotent per job).
   *
   * @return the new job, or empty when the key was already present
   */
  Optional<NodeJob> addIfAbsent(JobSpec spec) {
    NodeJob fresh = new NodeJob(spec);
    NodeJob previous = jobs.putIfAbsent(spec.job(), fresh);
    return previous == null ? Optional.of(fresh) : Optional.empty();
  }

  Optional<NodeJob> get(String key) {
    return Optional.ofNullable(jobs.get(key));
  }

  Optional<NodeJob> remove(String key) {
    return Optional.ofNullable(jobs.remove(key));
  }

  /**
   * Keys of the jobs this node holds, sorted: from their launch until the controller deletes them,
   * so a job whose script has ended but whose exit the controller has not yet taken is still
   * listed (the controller would otherwise take it for lost).
   */
  List<String> held() {
    List<String> keys = new ArrayList<>(jobs.keySet());
    keys.sort(null);
    return keys;
  }

  List<NodeJob> all() {
    return new ArrayList<>(jobs.values());
  }
}
