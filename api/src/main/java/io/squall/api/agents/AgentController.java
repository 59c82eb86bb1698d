package io.squall.api.agents;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.serde.annotation.Serdeable;
import io.micronaut.serde.config.naming.SnakeCaseStrategy;
import io.squall.api.config.SquallConfig;
import io.squall.api.jobs.JobCommands;
import io.squall.api.output.OutputStore;
import io.squall.api.state.ApiException;
import io.swagger.v3.oas.annotations.Hidden;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The agent side of docs/agent-protocol.md; the token filter admits only the agent token here. */
@Controller("/v1/agent")
@Hidden
public final class AgentController {
  private final AgentReports reports;
  private final OutputStore output;
  private final SquallConfig config;

  public AgentController(AgentReports reports, OutputStore output, SquallConfig config) {
    this.reports = reports;
    this.output = output;
    this.config = config;
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
  public record OutputBody(String job, String stream, long offset, String data) {}

  @Post("/register")
  public CompletableFuture<Map<String, Object>> register(@Body RegisterBody body) {
    if (body.address() == null || !body.address().startsWith("http")) {
      throw ApiException.badRequest("address: the agent's http:// base address is required");
    }
    return reports.register(new AgentReports.Registration(body.name(), body.address(), body.gpus(), body.gpuType(),
            body.cpus(), body.memoryMb(), body.features(), body.placementGroup(),
            body.running() == null ? List.of() : body.running()))
        .thenApply(v -> Map.of("heartbeat_seconds", Math.max(1, config.getHeartbeatInterval().toSeconds())));
  }

  @Post("/heartbeat")
  public CompletableFuture<Map<String, Object>> heartbeat(@Body HeartbeatBody body) {
    return reports.heartbeat(body.name()).thenApply(v -> Map.of());
  }

  @Post("/events")
  public CompletableFuture<Map<String, Object>> events(@Body EventsBody body) {
    List<AgentReports.Exit> exits = new ArrayList<>();
    for (EventBody e : body.events()) {
      JobCommands.parseJobId(e.job());
      if ("exit".equals(e.type())) {
        exits.add(new AgentReports.Exit(e.job(), e.exitCode() == null ? 1 : e.exitCode(), e.signal()));
      }
    }
    return reports.exits(body.name(), exits).thenApply(v -> Map.of());
  }

  @Post("/output")
  @ExecuteOn(TaskExecutors.BLOCKING)
  public Map<String, Object> output(@Body OutputBody body) {
    JobCommands.parseJobId(body.job());
    if (!OutputStore.isStream(body.stream())) {
      throw ApiException.badRequest("stream: stdout or stderr");
    }
    long size = output.append(body.job(), body.stream(), body.offset(),
        body.data() == null ? new byte[0] : body.data().getBytes(StandardCharsets.UTF_8));
    return Map.of("next_offset", size);
  }
}
