package io.squall.api.cluster;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestAttribute;
import io.squall.api.auth.Caller;
import io.squall.api.scheduling.Wakeup;
import io.squall.api.state.ApiException;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.web.JsonBody;
import io.squall.api.web.TextRules;
import io.squall.core.model.NodeState;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code scontrol update nodename=X state=drain|resume}: operators take a node out of service (its
 * jobs finish, no new one starts) and put it back. The state and its reason are stored with the
 * node, so a drain outlives a restart, and the scheduler sees the node as not accepting work at
 * its next cycle.
 */
@Controller("/v1/nodes")
@Tag(name = "cluster")
public final class NodeDrainController {
  /** Slurm keeps a node's reason short; a longer one is a mistake, not a reason. */
  private static final int MAX_REASON = 1024;

  private final StateWriter writer;
  private final Wakeup scheduler;

  public NodeDrainController(StateWriter writer, Wakeup scheduler) {
    this.writer = writer;
    this.scheduler = scheduler;
  }

  @Operation(summary = "Drain a node (operators): its jobs finish, no new job starts on it; {\"reason\": \"...\"}")
  @Post(value = "/{name}/drain", consumes = MediaType.APPLICATION_JSON)
  public CompletableFuture<Map<String, Object>> drain(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String name, @Body String text) {
    operator(caller);
    String reason = JsonBody.parse(text, Set.of("reason")).optText("reason");
    if (reason == null || reason.isBlank()) {
      throw ApiException.badRequest("reason: You must specify a reason when DOWNING or DRAINING a node. Request denied");
    }
    TextRules.plain("reason", reason, MAX_REASON);
    return writer.write(b -> {
      NodeStatus n = node(b.node(name), name);
      if (!n.state().acceptsWork() && n.state() != NodeState.DRAINING) {
        throw ApiException.conflict("Invalid node state specified: " + name + " is " + n.state()
            + "; only a node that is up (idle, mixed or allocated) can be drained");
      }
      b.update(n.withState(NodeState.DRAINING, reason, caller.user()), true);
      return Map.<String, Object>of("name", name, "state", NodeState.DRAINING.name(), "reason", reason);
    });
  }

  @Operation(summary = "Resume a drained node (operators): it takes work again")
  @Post("/{name}/resume")
  public CompletableFuture<Map<String, Object>> resume(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String name, @Nullable @Body String ignored) {
    operator(caller);
    return writer.write(b -> {
      NodeStatus n = node(b.node(name), name);
      if (n.state() != NodeState.DRAINING) {
        throw ApiException.conflict("Invalid node state specified: " + name + " is " + n.state()
            + "; only a drained or draining node resumes");
      }
      b.update(n.withState(NodeState.IDLE, null), true);
      b.onCommit(scheduler::wake);
      return Map.<String, Object>of("name", name, "state", NodeState.IDLE.name());
    });
  }

  private static void operator(Caller caller) {
    if (!caller.operator()) {
      throw ApiException.forbidden("Access/permission denied: only operators and administrators can drain or"
          + " resume nodes");
    }
  }

  private static NodeStatus node(NodeStatus n, String name) {
    if (n == null) {
      throw ApiException.notFound("Invalid node name specified: " + name);
    }
    return n;
  }
}
