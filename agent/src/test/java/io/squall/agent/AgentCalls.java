package io.squall.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The controller's calls to an agent, written out as JSON maps so that tests check the wire format. */
final class AgentCalls {
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  record Response(int status, String body) {}

  private AgentCalls() {}

  static Response post(URI agent, String path, String bearer, Object body) {
    try {
      return send(HttpRequest.newBuilder(URI.create(agent + path))
          .header("Authorization", "Bearer " + bearer)
          .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static Response delete(URI agent, String path, String bearer) {
    return send(HttpRequest.newBuilder(URI.create(agent + path))
        .header("Authorization", "Bearer " + bearer)
        .DELETE());
  }

  private static Response send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> r = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body());
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** A {@code POST /jobs} body for a batch job writing both streams to {@code out} in {@code dir}. */
  static Map<String, Object> batch(String job, String script, Path dir, Map<String, String> env) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("job", job);
    m.put("credential", "cred-" + job);
    m.put("batch", true);
    m.put("script", script);
    m.put("work_dir", dir.toString());
    m.put("environment", env);
    m.put("gpus", List.of(0, 1));
    m.put("stdout", dir.resolve("out").toString());
    m.put("stderr", dir.resolve("out").toString());
    m.put("open_mode", "truncate");
    m.put("nodes", Map.of("node-1", "http://127.0.0.1:1"));
    // The tests' own user: an agent running as root (as in CI) runs each job as the user it is told.
    m.put("run_as", Map.of("user", System.getProperty("user.name")));
    return m;
  }

  static void launch(URI agent, Map<String, Object> body) {
    Response r = post(agent, "/jobs", FakeController.TOKEN, body);
    if (r.status() != 200) {
      throw new AssertionError("launch refused: " + r);
    }
  }
}
