package io.squall.api.jobs;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.squall.api.auth.Caller;
import io.squall.api.config.ClusterLayout;
import io.squall.api.state.StateWriter;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.priority.MultifactorPriority;
import io.squall.core.priority.PriorityWeights;
import io.squall.core.schedule.JobPriority;
import io.squall.core.schedule.Scheduler;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code GET /v1/priorities}: sprio's data. The scheduler computes each pending job's priority
 * factors on the committed state, as its next cycle would, so what sprio shows is what orders
 * the queue. Users see their own jobs, operators all (as squeue).
 */
@Controller("/v1/priorities")
@Tag(name = "jobs")
public final class PriorityController {
  private final StateWriter writer;
  private final ClusterLayout layout;
  private final Scheduler scheduler;
  private final InstantSource clock;

  public PriorityController(StateWriter writer, ClusterLayout layout, Scheduler scheduler, InstantSource clock) {
    this.writer = writer;
    this.layout = layout;
    this.scheduler = scheduler;
    this.clock = clock;
  }

  @Operation(summary = "Pending jobs' priority factors per partition, and the weights (sprio)")
  @Get
  public CompletableFuture<Map<String, Object>> priorities(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Nullable @QueryValue String job, @Nullable @QueryValue String user, @Nullable @QueryValue String partition) {
    JobKey only = job == null ? null : JobCommands.parseJobId(job);
    Set<String> users = user == null ? Set.of() : Set.of(user.split(","));
    Set<String> partitions = partition == null ? Set.of() : Set.of(partition.split(","));
    return writer.read(state -> scheduler.priorities(state.snapshot(layout), clock.instant())).thenApply(all -> {
      List<Map<String, Object>> out = new ArrayList<>();
      for (JobPriority p : all) {
        Job j = p.job();
        if (!caller.mayControl(j.user()) || !users.isEmpty() && !users.contains(j.user())
            || !partitions.isEmpty() && !partitions.contains(p.partition()) || only != null && !names(only, j)) {
          continue;
        }
        out.add(line(p));
      }
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("weights", weights(scheduler.weights()));
      answer.put("jobs", out);
      return answer;
    });
  }

  /** Whether {@code key} names the job: its key, an array's id, or a task's own id. */
  private static boolean names(JobKey key, Job j) {
    return key.equals(j.key()) || key.taskId() == null && (j.key().id() == key.id() || j.jobId() == key.id());
  }

  private static Map<String, Object> line(JobPriority p) {
    Job j = p.job();
    MultifactorPriority.Factors f = p.factors();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("job_id", j.key().toString());
    m.put("job_id_raw", j.jobId());
    m.put("partition", p.partition());
    m.put("user", j.user());
    m.put("account", j.account());
    m.put("qos", j.qos());
    m.put("priority", p.priority());
    m.put("age", f.age());
    m.put("fair_share", f.fairShare());
    m.put("job_size", f.jobSize());
    m.put("partition_factor", f.partition());
    m.put("qos_factor", f.qos());
    m.put("nice", f.nice());
    m.put("explicit", f.explicit() != null);
    return m;
  }

  private static Map<String, Object> weights(PriorityWeights w) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("age", w.age());
    m.put("fair_share", w.fairShare());
    m.put("job_size", w.jobSize());
    m.put("partition", w.partition());
    m.put("qos", w.qos());
    m.put("max_age_seconds", w.maxAge().toSeconds());
    return m;
  }
}
