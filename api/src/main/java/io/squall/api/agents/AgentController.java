package io.squall.api.agents;

import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
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
import io.squall.api.web.JsonBody;
import io.squall.api.web.TextRules;
import io.squall.core.model.Node;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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

  private static final Set<String> REGISTER = Set.of("name", "address", "gpus", "gpu_type", "cpus", "memory_mb",
      "features", "placement_group", "running");
  private static final Set<String> HEARTBEAT = Set.of("name", "address", "running");
  private static final Set<String> EVENTS = Set.of("name", "events");
  private static final Set<String> EVENT = Set.of("id", "job", "type", "exit_code", "signal", "time");
  private static final Set<String> INTERRUPTION = Set.of("name", "source", "kind", "instance_id", "noticed_at",
      "deadline", "detail");
  private static final Set<String> CHECKPOINT = Set.of("name", "job", "step", "path");
  private static final Set<String> OUTPUT = Set.of("job", "stream", "offset", "data");
  /** The sizes of the {@code nodes} table's columns. */
  private static final int MAX_NAME = 128;
  private static final int MAX_ADDRESS = 512;
  private static final int MAX_FEATURES = 2000;

  /** The reporting node's name: required, and one this agent may speak for. */
  private static String node(Caller caller, JsonBody body) {
    String name = TextRules.plain("name", body.text("name"), MAX_NAME);
    checkSpeaksFor(caller, name);
    return name;
  }

  /** The job keys an agent says it holds. */
  private static List<String> jobKeys(JsonBody body, String field) {
    List<String> keys = body.textList(field);
    keys.forEach(JobCommands::parseJobId);
    return keys;
  }

  @Post("/register")
  public CompletableFuture<Map<String, Object>> register(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Body String text) {
    JsonBody body = JsonBody.parse(text, REGISTER);
    String name = node(caller, body);
    String address = TextRules.plain("address", body.text("address"), MAX_ADDRESS);
    if (!address.startsWith("http://") && !address.startsWith("https://")) {
      throw ApiException.badRequest("address: the agent's http:// base address is required");
    }
    List<String> features = body.textList("features");
    features.forEach(f -> TextRules.plain("features", f, MAX_NAME));
    if (String.join(",", features).length() > MAX_FEATURES) {
      throw ApiException.badRequest("features: at most " + MAX_FEATURES + " characters in all");
    }
    return reports.register(new AgentReports.Registration(name, address,
            (int) body.wholeNumber("gpus", 0, Node.MAX_GPUS),
            TextRules.plain("gpu_type", body.optText("gpu_type"), 64),
            (int) body.wholeNumber("cpus", 0, Integer.MAX_VALUE), body.wholeNumber("memory_mb", 0, Long.MAX_VALUE),
            features, TextRules.plain("placement_group", body.optText("placement_group"), MAX_NAME),
            jobKeys(body, "running")))
        .thenApply(strays -> {
          Map<String, Object> answer = new LinkedHashMap<>();
          answer.put("heartbeat_seconds", Math.max(1, config.getHeartbeatInterval().toSeconds()));
          if (!strays.isEmpty()) {
            answer.put("strays", strays); // runs to kill: see AgentReports
          }
          return answer;
        });
  }

  @Post("/heartbeat")
  public CompletableFuture<Map<String, Object>> heartbeat(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Body String text) {
    JsonBody body = JsonBody.parse(text, HEARTBEAT);
    return reports.heartbeat(node(caller, body), TextRules.plain("address", body.optText("address"), MAX_ADDRESS),
        jobKeys(body, "running")).thenApply(strays -> strays.isEmpty() ? Map.of() : Map.of("strays", strays));
  }

  @Post("/events")
  public CompletableFuture<Map<String, Object>> events(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Body String text) {
    JsonBody body = JsonBody.parse(text, EVENTS);
    String name = node(caller, body);
    List<AgentReports.Exit> exits = new ArrayList<>();
    for (JsonBody e : body.objects("events", EVENT)) {
      String job = e.text("job");
      JobCommands.parseJobId(job);
      if ("exit".equals(e.text("type"))) {
        Long code = e.optLong("exit_code");
        Long signal = e.optLong("signal");
        exits.add(new AgentReports.Exit(job, code == null ? 1 : (int) Math.max(0, Math.min(255, code)),
            signal == null ? null : (int) Math.max(0, Math.min(128, signal))));
      }
    }
    return reports.exits(name, exits).thenApply(v -> Map.of());
  }

  /** A notice the node's metadata service gave: handled by the controller's interruption responder. */
  @Post("/interruptions")
  public Map<String, Object> interruption(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Body String text) {
    JsonBody body = JsonBody.parse(text, INTERRUPTION);
    String name = node(caller, body);
    if (writer.state().node(name) == null) {
      throw ApiException.badRequest("name: the reporting agent's node, one the controller knows; not " + name);
    }
    // What a node's metadata service can say: no more.
    Interruption.Source source = enumValue(Interruption.Source.class, "source", body.optText("source"));
    if (source != Interruption.Source.AWS_METADATA && source != Interruption.Source.GCE_METADATA) {
      throw ApiException.badRequest("source: an agent reports AWS_METADATA or GCE_METADATA, not " + source);
    }
    Interruption.Kind kind = enumValue(Interruption.Kind.class, "kind", body.optText("kind"));
    if (kind == Interruption.Kind.GONE) {
      throw ApiException.badRequest("kind: an agent reports TERMINATION or REBALANCE; a machine that is gone cannot");
    }
    Instant now = clock.instant();
    Instant deadline = instant("deadline", body.optText("deadline"));
    if (deadline.isAfter(now.plus(MAX_NOTICE))) {
      throw ApiException.badRequest("deadline: at most " + MAX_NOTICE.toMinutes() + " minutes ahead, not " + deadline);
    }
    String noticedAt = body.optText("noticed_at");
    Instant noticed = noticedAt == null ? now : instant("noticed_at", noticedAt);
    String instanceId = TextRules.plain("instance_id", body.optText("instance_id"), 255);
    // Shortened where it is stored (InterruptionResponder), as every source's detail is.
    String detail = body.optText("detail");
    interruptions.submit(new Interruption(name, instanceId, source, kind, noticed, deadline,
        detail == null ? "" : detail));
    return Map.of();
  }

  /** {@code squall checkpoint register} inside a job, relayed by the job's node agent. */
  @Post("/checkpoints")
  @ExecuteOn(TaskExecutors.BLOCKING)
  public Map<String, Object> checkpoint(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @Body String text) {
    JsonBody body = JsonBody.parse(text, CHECKPOINT);
    String name = node(caller, body);
    JobKey key = JobCommands.parseJobId(body.text("job"));
    long step = body.wholeNumber("step", 0, Long.MAX_VALUE);
    String path = TextRules.plain("path", body.text("path"), CheckpointCatalog.MAX_PATH);
    StoredJob j = writer.state().job(key);
    if (j == null || !j.job().state().holdsResources()
        || j.job().allocation().stream().noneMatch(g -> g.node().equals(name))) {
      throw ApiException.conflict("job " + key + " is not running on node " + name);
    }
    CheckpointRow row = checkpoints.register(key.toString(), step, path, name);
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
  public Map<String, Object> output(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @Body String text) {
    JsonBody body = JsonBody.parse(text, OUTPUT);
    JobKey key = JobCommands.parseJobId(body.text("job"));
    if (caller.node() != null) {
      // A node writes the output of jobs that ran on it, and no other.
      StoredJob j = writer.state().job(key);
      if (j == null || j.job().allocation().stream().noneMatch(g -> g.node().equals(caller.node()))) {
        throw ApiException.forbidden("job " + key + " did not run on node " + caller.node());
      }
    }
    String stream = body.text("stream");
    if (!OutputStore.isStream(stream)) {
      throw ApiException.badRequest("stream: stdout or stderr");
    }
    String data = body.optText("data");
    long size = output.append(key.toString(), stream, body.wholeNumber("offset", 0, Long.MAX_VALUE),
        data == null ? new byte[0] : data.getBytes(StandardCharsets.UTF_8));
    return Map.of("next_offset", size);
  }
}
