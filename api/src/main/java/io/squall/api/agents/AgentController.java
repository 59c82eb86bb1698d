package io.squall.api.agents;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.serde.annotation.Serdeable;
import io.micronaut.serde.config.naming.SnakeCaseStrategy;
import io.squall.api.auth.Caller;
import io.squall.api.config.SquallConfig;
import io.squall.api.jobs.JobCommands;
import io.squall.api.output.OutputStore;
import io.squall.api.spot.CheckpointCatalog;
import io.squall.api.spot.InterruptionResponder;
import io.squall.api.state.ApiException;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.store.CheckpointRow;
import io.squall.core.model.JobKey;
import io.squall.core.spot.Interruption;
import io.swagger.v3.oas.annotations.Hidden;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The agent side of docs/agent-protocol.md; the token filter admits only agent tokens here, and
 * an agent with a per-node token may speak only for its node ({@link AgentCredentials}).
 */
@Controller("/v1/agent")
@Hidden
public final class AgentController {
  /** Clouds give 30 s to 2 min of notice; an hour is beyond any. */
  private static final Duration MAX_NOTICE = Duration.ofHours(1);

  private final AgentReports reports;
  private final OutputStore output;
  private final SquallConfig config;
  private final StateWriter writer;
  private final InterruptionResponder interruptions;
  private final CheckpointCatalog checkpoints;
  private final InstantSource clock;

  public AgentController(AgentReports reports, OutputStore output, SquallConfig config, StateWriter writer,
      InterruptionResponder interruptions, CheckpointCatalog checkpoints, InstantSource clock) {
    this.reports = reports;
    this.interruptions = interruptions;
    this.checkpoints = checkpoints;
    this.clock = clock;
    this.output = output;
    this.config = config;
    this.writer = writer;
  }

  /** An agent with a per-node token speaks for its own node only. */
  private static void checkSpeaksFor(Caller caller, String node) {
    if (!caller.speaksFor(node)) {
      throw ApiException.forbidden("this agent token belongs to node " + caller.node() + ", not " + node);
    }
  }

  @Serdeable(naming = SnakeCaseStrategy.class)
  public record RegisterBody(String name, String address, int gpus, @Nullable String gpuType, int cpus,
      long memoryMb, @Nullable List<String> features, @Nullable String placementGroup,
      @Nullable List<String> running) {}

  @Serdeable(naming = SnakeCaseStrategy.class)
  public record HeartbeatBody(String name, @Nullable List<String> running) {}

  @Serdeable(naming = SnakeCaseStrategy.class)
  public record EventBody(@Nullable String id, String job, String type, @Nullable Integer exitCode,
      @Nullable Integer signal, @Nullable String time) {}

  @Serdeable(naming = SnakeCaseStrategy.class)
  public record EventsBody(String name, List<EventBody> events) {}

  @Serdeable(naming = SnakeCaseStrategy.class)
  public record InterruptionBody(String name, String source, String kind, @Nullable String instanceId,
      @Nullable String noticedAt, String deadline, @Nullable String detail) {}

  @Serdeable(naming = SnakeCaseStrategy.class)
  public record CheckpointBody(String name, String job, long step, String path) {}

  @Serdeable(naming = SnakeCaseStrategy.class)
  public record OutputBody(String job, String stream, long offset, String data) {}

  @Post("/register")
  public CompletableFuture<Map<String, Object>> register(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Body RegisterBody body) {
    checkSpeaksFor(caller, body.name());
    if (body.address() == null || !body.address().startsWith("http")) {
      throw ApiException.badRequest("address: the agent's http:// base address is required");
    }
    return reports.register(new AgentReports.Registration(body.name(), body.address(), body.gpus(), body.gpuType(),
            body.cpus(), body.memoryMb(), body.features(), body.placementGroup(),
            body.running() == null ? List.of() : body.running()))
        .thenApply(v -> Map.of("heartbeat_seconds", Math.max(1, config.getHeartbeatInterval().toSeconds())));
  }

  @Post("/heartbeat")
  public CompletableFuture<Map<String, Object>> heartbeat(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Body HeartbeatBody body) {
    checkSpeaksFor(caller, body.name());
    return reports.heartbeat(body.name(), body.running() == null ? List.of() : body.running()).thenApply(v -> Map.of());
  }

  @Post("/events")
  public CompletableFuture<Map<String, Object>> events(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Body EventsBody body) {
    checkSpeaksFor(caller, body.name());
    List<AgentReports.Exit> exits = new ArrayList<>();
    for (EventBody e : body.events()) {
      JobCommands.parseJobId(e.job());
      if ("exit".equals(e.type())) {
        exits.add(new AgentReports.Exit(e.job(), e.exitCode() == null ? 1 : e.exitCode(), e.signal()));
      }
    }
    return reports.exits(body.name(), exits).thenApply(v -> Map.of());
  }

  /** A notice the node's metadata service gave: handled by the controller's interruption responder. */
  @Post("/interruptions")
  public Map<String, Object> interruption(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Body InterruptionBody body) {
    checkSpeaksFor(caller, body.name());
    if (body.name() == null || writer.state().node(body.name()) == null) {
      throw ApiException.badRequest("name: the reporting agent's node, one the controller knows; not " + body.name());
    }
    // What a node's metadata service can say: no more.
    Interruption.Source source = enumValue(Interruption.Source.class, "source", body.source());
    if (source != Interruption.Source.AWS_METADATA && source != Interruption.Source.GCE_METADATA) {
      throw ApiException.badRequest("source: an agent reports AWS_METADATA or GCE_METADATA, not " + source);
    }
    Interruption.Kind kind = enumValue(Interruption.Kind.class, "kind", body.kind());
    if (kind == Interruption.Kind.GONE) {
      throw ApiException.badRequest("kind: an agent reports TERMINATION or REBALANCE; a machine that is gone cannot");
    }
    Instant now = clock.instant();
    Instant deadline = instant("deadline", body.deadline());
    if (deadline.isAfter(now.plus(MAX_NOTICE))) {
      throw ApiException.badRequest("deadline: at most " + MAX_NOTICE.toMinutes() + " minutes ahead, not " + deadline);
    }
    Instant noticed = body.noticedAt() == null ? now : instant("noticed_at", body.noticedAt());
    if (body.instanceId() != null && (body.instanceId().length() > 255 || body.instanceId().indexOf('\0') >= 0)) {
      throw ApiException.badRequest("instance_id: at most 255 characters");
    }
    // Shortened where it is stored (InterruptionResponder), as every source's detail is.
    String detail = body.detail() == null ? "" : body.detail().replace('\0', ' ');
    interruptions.submit(new Interruption(body.name(), body.instanceId(), source, kind, noticed, deadline, detail));
    return Map.of();
  }

  /** {@code squall checkpoint register} inside a job, relayed by the job's node agent. */
  @Post("/checkpoints")
  @ExecuteOn(TaskExecutors.BLOCKING)
  public Map<String, Object> checkpoint(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @Body CheckpointBody body) {
    checkSpeaksFor(caller, body.name());
    JobKey key = JobCommands.parseJobId(body.job());
    StoredJob j = writer.state().job(key);
    if (j == null || !j.job().state().holdsResources()
        || j.job().allocation().stream().noneMatch(g -> g.node().equals(body.name()))) {
      throw ApiException.conflict("job " + body.job() + " is not running on node " + body.name());
    }
    CheckpointRow row = checkpoints.register(key.toString(), body.step(), body.path(), body.name());
    return Map.of("step", row.step(), "path", row.path());
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, String field, String value) {
    try {
      return Enum.valueOf(type, value == null ? "" : value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(field + ": one of " + Arrays.toString(type.getEnumConstants())
          + ", not '" + value + "'");
    }
  }

  private static Instant instant(String field, String value) {
    try {
      return Instant.parse(value == null ? "" : value);
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(field + ": an ISO-8601 instant such as 2026-11-21T08:22:00Z, not '" + value + "'");
    }
  }

  @Post("/output")
  @ExecuteOn(TaskExecutors.BLOCKING)
  public Map<String, Object> output(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @Body OutputBody body) {
    JobKey key = JobCommands.parseJobId(body.job());
    if (caller.node() != null) {
      // A node writes the output of jobs that ran on it, and no other.
      StoredJob j = writer.state().job(key);
      if (j == null || j.job().allocation().stream().noneMatch(g -> g.node().equals(caller.node()))) {
        throw ApiException.forbidden("job " + body.job() + " did not run on node " + caller.node());
      }
    }
    if (!OutputStore.isStream(body.stream())) {
      throw ApiException.badRequest("stream: stdout or stderr");
    }
    long size = output.append(body.job(), body.stream(), body.offset(),
        body.data() == null ? new byte[0] : body.data().getBytes(StandardCharsets.UTF_8));
    return Map.of("next_offset", size);
  }
}
