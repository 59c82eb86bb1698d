package io.squall.api.spot;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.model.Pageable;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.http.annotation.Status;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.serde.annotation.Serdeable;
import io.micronaut.serde.config.naming.SnakeCaseStrategy;
import io.squall.api.auth.Caller;
import io.squall.api.config.SquallConfig;
import io.squall.api.jobs.JobAccess;
import io.squall.api.jobs.JobCommands;
import io.squall.api.state.ApiException;
import io.squall.api.state.JobHistory;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.store.CheckpointRow;
import io.squall.api.store.InterruptionRepository;
import io.squall.api.store.InterruptionRow;
import io.squall.api.web.TimeParameter;
import io.squall.checkpoint.Checkpoint;
import io.squall.core.model.JobKey;
import io.squall.core.spot.Interruption;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Interruptions and checkpoints over HTTP: an operator's injected notice
 * ({@code POST /v1/nodes/NAME/interrupt}, for drills and for the local provider), the record of
 * interruptions, and a job's checkpoint catalog.
 */
@Controller("/v1")
@Tag(name = "spot")
@ExecuteOn(TaskExecutors.BLOCKING)
public final class SpotController {
  /** The longest notice an operator may give: an hour; clouds give 30 s to 2 min. */
  private static final long MAX_NOTICE_SECONDS = 3600;
  /** How many interruptions one listing returns unless asked otherwise, and at most. */
  private static final int DEFAULT_LIMIT = 1000;
  private static final int MAX_LIMIT = 10_000;

  private final InterruptionResponder responder;
  private final CheckpointCatalog checkpoints;
  private final InterruptionRepository interruptions;
  private final StateWriter writer;
  private final JobHistory history;
  private final JobAccess jobs;
  private final InstantSource clock;
  private final SquallConfig config;

  public SpotController(InterruptionResponder responder, CheckpointCatalog checkpoints,
      InterruptionRepository interruptions, StateWriter writer, JobHistory history, JobAccess jobs,
      InstantSource clock, SquallConfig config) {
    this.config = config;
    this.jobs = jobs;
    this.history = history;
    this.responder = responder;
    this.checkpoints = checkpoints;
    this.interruptions = interruptions;
    this.writer = writer;
    this.clock = clock;
  }

  /**
   * @param noticeSeconds how long before the machine goes (default 120, EC2's notice)
   * @param kind termination (default), rebalance or gone
   */
  @Serdeable(naming = SnakeCaseStrategy.class)
  public record InterruptBody(@Nullable Long noticeSeconds, @Nullable String kind) {}

  @Operation(summary = "Interrupt a node as a spot reclaim would (operators): drain, checkpoint signal, requeue")
  @Post("/nodes/{name}/interrupt")
  @Status(HttpStatus.ACCEPTED)
  public Map<String, Object> interrupt(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @PathVariable String name,
      @Nullable @Body InterruptBody body) {
    if (!caller.operator()) {
      throw new ApiException(HttpStatus.FORBIDDEN, "only operators may interrupt nodes");
    }
    if (writer.state().node(name) == null) {
      throw ApiException.notFound("no node " + name);
    }
    long notice = body == null || body.noticeSeconds() == null ? 120 : body.noticeSeconds();
    if (notice < 0 || notice > MAX_NOTICE_SECONDS) {
      throw ApiException.badRequest("notice_seconds: from 0 to " + MAX_NOTICE_SECONDS + ", not " + notice);
    }
    Interruption.Kind kind;
    String k = body == null || body.kind() == null ? "termination" : body.kind();
    try {
      kind = Interruption.Kind.valueOf(k.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("kind: termination, rebalance or gone, not '" + k + "'");
    }
    Instant now = clock.instant();
    Instant deadline = now.plusSeconds(notice);
    responder.submit(new Interruption(name, null, Interruption.Source.OPERATOR, kind, now, deadline,
        "injected by " + caller.user()));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("node", name);
    out.put("kind", kind.name());
    out.put("deadline", deadline.toString());
    return out;
  }

  @Operation(summary = "Interruptions, oldest first, one row per job hit, with what each cost: the latest "
      + "limit (1000) noticed since a time, or every one of a job")
  @Get("/interruptions{?job,since,limit}")
  public Map<String, Object> interruptions(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Nullable @QueryValue String job, @Nullable @QueryValue String since, @Nullable @QueryValue String limit) {
    int max = limit(limit);
    Instant from = since == null ? Instant.EPOCH : TimeParameter.parse("since", since, config.zoneId());
    List<InterruptionRow> rows;
    boolean truncated = false;
    if (job != null) {
      // One job's are few (at most its restarts' worth): all of them.
      rows = new ArrayList<>(interruptions.findByJobKeyOrderById(JobCommands.parseJobId(job).toString()));
      rows.removeIf(r -> r.noticedAt().isBefore(from));
    } else {
      // The newest first, one more than asked to tell whether older ones were left out; the index on
      // noticed_at keeps this from reading the whole history.
      rows = new ArrayList<>(interruptions.findByNoticedAtGreaterThanEqualsOrderByIdDesc(from,
          Pageable.from(0, max + 1)));
      truncated = rows.size() > max;
      rows = new ArrayList<>(rows.subList(0, Math.min(max, rows.size())));
      Collections.reverse(rows);
    }
    List<Map<String, Object>> out = new ArrayList<>();
    Map<String, JobHistory.Owner> owners = caller.operator() ? Map.of() : history.owners(writer.state(),
        rows.stream().map(InterruptionRow::jobKey).filter(k -> k != null).collect(java.util.stream.Collectors.toSet()));
    for (InterruptionRow r : rows) {
      JobHistory.Owner owner = r.jobKey() == null ? null : owners.get(r.jobKey());
      if (!caller.operator() && (owner == null || !caller.mayControl(owner.user()))) {
        continue; // as with jobs (PrivateData=jobs): users see what hit their own jobs
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("node", r.nodeName());
      m.put("instance_id", r.instanceId());
      m.put("source", r.source());
      m.put("kind", r.kind());
      m.put("noticed_at", r.noticedAt().toString());
      m.put("deadline", r.deadline().toString());
      m.put("detail", r.detail());
      m.put("job", r.jobKey());
      m.put("outcome", r.outcome());
      m.put("lost_gpu_hours", r.lostGpuSeconds() == null ? null : r.lostGpuSeconds() / 3600);
      m.put("handled_at", r.handledAt() == null ? null : r.handledAt().toString());
      out.add(m);
    }
    return Map.of("interruptions", out, "truncated", truncated);
  }

  private static int limit(String text) {
    if (text == null) {
      return DEFAULT_LIMIT;
    }
    try {
      int n = Integer.parseInt(text.strip());
      if (n >= 1 && n <= MAX_LIMIT) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiException.badRequest("limit=" + text + ": expected a whole number from 1 to " + MAX_LIMIT);
  }

  @Operation(summary = "A job's checkpoints, oldest first, and the one a restart restores from")
  @Get("/jobs/{id}/checkpoints")
  public Map<String, Object> checkpoints(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @PathVariable String id) {
    StoredJob j = jobs.visible(caller, id);
    JobKey key = j.key();
    // A job that never ran has no partition yet: only what was registered explicitly exists then.
    String partition = j.job().partition();
    List<Map<String, Object>> out = new ArrayList<>();
    List<CheckpointRow> rows = checkpoints.list(key.toString(), partition);
    for (CheckpointRow c : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("step", c.step());
      m.put("path", c.path());
      m.put("node", c.nodeName());
      m.put("registered", c.registered().toString());
      out.add(m);
    }
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("job", key.toString());
    reply.put("checkpoints", out);
    reply.put("restore_from", CheckpointCatalog.latestOf(rows).map(Checkpoint::path).orElse(null));
    return reply;
  }
}
