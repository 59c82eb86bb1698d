package io.squall.agent;

import io.squall.agent.Protocol.CheckpointRegistration;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Relays a job's {@code squall checkpoint register} to the controller ({@code POST
 * /v1/agent/checkpoints}) and hands back the controller's word. It waits on the caller's thread:
 * the caller is the job's tool, never the controller, so the wait cannot deadlock, and the tool
 * must learn whether the checkpoint counts. Nothing is queued or resent: the tool reports a
 * failure and the job decides. Thread-safe.
 */
final class CheckpointRelay {
  static final String PATH = "/v1/agent/checkpoints";

  private final String node;
  private final ControllerClient client;
  private final AgentLog log;

  CheckpointRelay(String node, ControllerClient client, AgentLog log) {
    this.node = node;
    this.client = client;
    this.log = log;
  }

  /**
   * What the tool is answered: 200 with {@code {"step","path"}} as the controller recorded them,
   * or the controller's error status with its {@code {"error"}}; 502 when the controller cannot
   * be reached.
   */
  record Answer(int status, Map<String, Object> body) {}

  Answer relay(String job, long step, String path) {
    try {
      ControllerClient.Reply reply = client.post(PATH, new CheckpointRegistration(node, job, step, path));
      if (reply.ok()) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("step", reply.body().path("step").asLong(step));
        body.put("path", reply.body().path("path").asText(path));
        log.info("job " + job + ": checkpoint step " + body.get("step") + " registered: " + body.get("path"));
        return new Answer(200, body);
      }
      String error = reply.body().path("error").isTextual() ? reply.body().path("error").asText()
          : "the controller answered HTTP " + reply.status();
      log.info("job " + job + ": checkpoint step " + step + " at " + path + " refused by the controller: " + error);
      return new Answer(reply.status(), Map.of("error", error));
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt();
      return unreachable(job, "the agent is stopping");
    } catch (IOException e) {
      String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      return unreachable(job, "the controller cannot be reached from node " + node + " (" + why + "); try again");
    }
  }

  private Answer unreachable(String job, String why) {
    log.warn("job " + job + ": checkpoint not relayed: " + why);
    return new Answer(502, Map.of("error", why));
  }
}
