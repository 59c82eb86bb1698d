package io.squall.api.state;

import io.micronaut.json.JsonMapper;
import io.micronaut.core.type.Argument;
import io.squall.api.store.JobRow;
import io.squall.api.store.JobScriptRow;
import io.squall.api.store.NodeRow;
import io.squall.api.store.StoreText;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.sbatch.JobRequest;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Converts between the controller's values and table rows. */
@Singleton
public final class Rows {
  private final JsonMapper json;

  public Rows(JsonMapper json) {
    this.json = json;
  }

  public JobRow job(StoredJob s) {
    Job j = s.job();
    return new JobRow(j.key().toString(), j.key().id(), j.key().taskId(), j.jobId(), j.user(), j.account(),
        j.qos(), j.state().name(), s.held(), j.partition(), StoreText.taskIds(j.pendingTasks()),
        StoreText.allocation(s.ranOn()), j.startTime(), j.endTime(), j.exitCode(), s.exitSignal(),
        j.restartCount(), s.ending() == null ? null : s.ending().name(), s.credential(), j.notBefore(), j.eligibleSince(),
        s.version(), s.limitSignalled(), s.submission().updates().isEmpty() ? null : write(s.submission().updates()));
  }

  /** The options {@code scontrol update} gave the job the row stores (none for most). */
  public List<String> updates(JobRow r) {
    return r.updates() == null ? List.of() : read(r.updates(), Argument.listOf(String.class));
  }

  /** A stored job, with its request parsed again from the submission. */
  public StoredJob job(JobRow r, Submission submission, JobRequest request, String reason) {
    JobKey key = new JobKey(r.jobId(), r.taskId());
    JobRequest held = request.withHold(r.held());
    JobState state = JobState.valueOf(r.state());
    List<GpuGrant> ranOn = StoreText.parseAllocation(r.allocation());
    Job job = new Job(key, r.ownJobId(), held, r.user(), r.account(), r.qos(), submission.submitTime(), state,
        r.partition(), StoreText.parseTaskIds(r.pendingTasks()), state.holdsResources() ? ranOn : List.of(),
        r.startTime(), r.endTime(), null, r.exitCode(), r.restartCount(), r.notBefore(), r.eligibleSince());
    return new StoredJob(job, submission, reason, null, r.ending() == null ? null : JobState.valueOf(r.ending()),
        r.exitSignal(), r.credential(), ranOn, r.version(), r.limitSignalled());
  }

  public JobScriptRow submission(Submission s) {
    return new JobScriptRow(s.jobId(), s.scriptName(), s.script(), write(s.options()), write(s.scriptArgs()),
        write(s.environment()), s.submitDir(), s.submitTime(), s.interactive());
  }

  public Submission submission(JobScriptRow r) {
    return new Submission(r.jobId(), r.scriptName(), r.script(), read(r.options(), Argument.listOf(String.class)),
        read(r.scriptArgs(), Argument.listOf(String.class)),
        read(r.environment(), Argument.mapOf(String.class, String.class)), r.submitDir(), r.submitTime(), List.of(),
        r.interactive());
  }

  public NodeRow node(NodeStatus n) {
    Node node = n.node();
    return new NodeRow(node.name(), node.state().name(), n.reason(), n.reasonUser(), n.reasonTime(), n.address(),
        node.gpus(), node.gpuType(),
        node.cpus(), node.memoryMb(), String.join(",", new TreeSet<>(node.features())), node.placementGroup(),
        n.version());
  }

  public NodeStatus node(NodeRow r) {
    Set<String> features = r.features().isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(r.features().split(",")));
    Node node = new Node(r.name(), r.gpus(), r.gpuType(), r.cpus(), r.memoryMb(), features, r.placementGroup(),
        NodeState.valueOf(r.state()));
    return new NodeStatus(node, r.reason(), r.address(), null, r.version(), r.reasonUser(), r.reasonTime());
  }

  private String write(Object value) {
    try {
      return json.writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private <T> T read(String text, Argument<T> type) {
    try {
      return json.readValue(text, type);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable stored value: " + text, e);
    }
  }
}
