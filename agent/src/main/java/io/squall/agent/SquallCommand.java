package io.squall.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.agent.Protocol.CheckpointRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The squall CLI inside a job, reduced to the one thing a job says from inside: {@code squall
 * checkpoint register PATH --step N}, that it wrote a checkpoint. It goes to this node's agent
 * with the job's credential; the agent relays it to the controller, whose catalog decides what a
 * restart restores from. Exit status: 0 registered, 1 not registered (refused, or the agent or
 * the controller unreachable), 2 a usage error. The cluster-wide squall CLI is the one outside
 * jobs, which this wrapper hides on the job's PATH.
 */
final class SquallCommand {
  static final String USAGE =
      "inside a job, squall offers only: squall checkpoint register PATH --step N; use the squall CLI outside jobs";

  private static final Pattern WHOLE_NUMBER = Pattern.compile("[0-9]+");
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** Longer than the agent's own wait for the controller (30 s), so the agent's answer comes first. */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private SquallCommand() {}

  /** What {@code squall checkpoint register} was asked; {@code path} absolute, or a URL as given. */
  record Registration(long step, String path) {}

  /** The command line is not {@code checkpoint register PATH --step N}; the message says how. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /** A registration that did not happen; the message says why and is printed as is. */
  private static final class NotRegistered extends Exception {
    private static final long serialVersionUID = 1L;

    NotRegistered(String message) {
      super(message);
    }
  }

  static int run(List<String> args, Map<String, String> env, String workDir, PrintStream out, PrintStream err) {
    Registration registration;
    try {
      registration = parse(args, workDir);
    } catch (UsageException e) {
      err.println("squall: error: " + e.getMessage());
      err.println("usage: " + USAGE);
      return 2;
    }
    try {
      return register(registration, env, out);
    } catch (NotRegistered e) {
      err.println("squall: checkpoint not registered: " + e.getMessage());
      return 1;
    }
  }

  /** Reads {@code checkpoint register PATH --step N} (or {@code --step=N}, before or after PATH). */
  static Registration parse(List<String> args, String workDir) throws UsageException {
    if (args.size() < 2 || !args.get(0).equals("checkpoint") || !args.get(1).equals("register")) {
      throw new UsageException(args.isEmpty() ? "no command given"
          : "'squall " + String.join(" ", args) + "' is not available inside a job");
    }
    String path = null;
    Long step = null;
    for (int i = 2; i < args.size(); i++) {
      String arg = args.get(i);
      String value;
      if (arg.equals("--step")) {
        if (i + 1 == args.size()) {
          throw new UsageException("--step needs a value: the training step the checkpoint holds (0 or more)");
        }
        value = args.get(++i);
      } else if (arg.startsWith("--step=")) {
        value = arg.substring("--step=".length());
      } else if (arg.startsWith("-") && arg.length() > 1) {
        throw new UsageException("unknown option '" + arg + "'");
      } else if (path != null) {
        throw new UsageException("one PATH only, not '" + path + "' and '" + arg + "'");
      } else {
        path = arg;
        continue;
      }
      if (step != null) {
        throw new UsageException("--step given twice");
      }
      step = step(value);
    }
    if (path == null || path.isBlank()) {
      throw new UsageException("PATH is missing: the checkpoint file or directory the job wrote");
    }
    if (step == null) {
      throw new UsageException("--step N is missing: the training step the checkpoint holds (0 or more)");
    }
    return new Registration(step, absolute(path, workDir));
  }

  private static long step(String value) throws UsageException {
    if (WHOLE_NUMBER.matcher(value).matches()) {
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        // Too many digits: refused below like any other bad number.
      }
    }
    throw new UsageException("--step needs a whole number, 0 or more, not '" + value + "'");
  }

  /** Relative to the job's current directory; a URL (an object store's) stays as given. */
  private static String absolute(String path, String workDir) {
    if (path.contains("://")) {
      return path;
    }
    return Path.of(workDir).resolve(path).toAbsolutePath().normalize().toString();
  }

  private static int register(Registration registration, Map<String, String> env, PrintStream out)
      throws NotRegistered {
    String job = JobContext.jobKey(env);
    if (job == null) {
      throw new NotRegistered("not inside a job: SQUALL_JOB_KEY is not set; use the squall CLI outside jobs");
    }
    URI agent = ownAgent(env);
    URI endpoint;
    try {
      endpoint = URI.create(withoutSlash(agent.toString()) + "/jobs/" + job + "/checkpoints");
    } catch (IllegalArgumentException e) {
      throw new NotRegistered("cannot address job " + job + " at " + agent + ": " + e.getMessage());
    }
    HttpResponse<byte[]> response;
    try {
      HttpRequest post = HttpRequest.newBuilder(endpoint)
          .timeout(REQUEST_TIMEOUT)
          .header("Authorization", "Bearer " + required(env, "SQUALL_JOB_CREDENTIAL"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(
              new CheckpointRequest(registration.step(), registration.path()))))
          .build();
      HttpClient http = CaFile.trusting(HttpClient.newBuilder(), caFile(env))
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(CONNECT_TIMEOUT)
          .build();
      response = http.send(post, HttpResponse.BodyHandlers.ofByteArray());
    } catch (TlsFileException e) {
      throw new NotRegistered(CaFile.ENV + ": " + e.getMessage());
    } catch (HttpTimeoutException e) {
      throw new NotRegistered("this node's agent at " + agent + " did not answer within "
          + REQUEST_TIMEOUT.toSeconds() + " s");
    } catch (IOException e) {
      throw new NotRegistered("cannot reach this node's agent at " + agent + ": "
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NotRegistered("interrupted while waiting for this node's agent");
    }
    JsonNode body = Json.readOrMissing(response.body());
    if (response.statusCode() != 200) {
      throw new NotRegistered(body.path("error").isTextual() ? body.path("error").asText()
          : "the agent answered HTTP " + response.statusCode());
    }
    out.println("registered checkpoint step " + body.path("step").asLong(registration.step()) + ": "
        + body.path("path").asText(registration.path()));
    out.flush();
    return 0;
  }

  /** The CA an agent serving HTTPS is checked against; null for the JDK's. */
  private static Path caFile(Map<String, String> env) {
    String file = env.get(CaFile.ENV);
    return file == null || file.isBlank() ? null : Path.of(file);
  }

  /** This node's agent, from SLURMD_NODENAME and SQUALL_AGENTS: the one that holds the job here. */
  private static URI ownAgent(Map<String, String> env) throws NotRegistered {
    String node = required(env, "SLURMD_NODENAME");
    Map<String, URI> agents;
    try {
      agents = JobContext.agents(required(env, "SQUALL_AGENTS"));
    } catch (IllegalArgumentException e) {
      throw new NotRegistered(e.getMessage());
    }
    URI agent = agents.get(node);
    if (agent == null) {
      throw new NotRegistered("SQUALL_AGENTS has no agent for this node, " + node);
    }
    return agent;
  }

  private static String required(Map<String, String> env, String name) throws NotRegistered {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new NotRegistered(name + " is not set: this job was not started by a Squall agent");
    }
    return value;
  }

  private static String withoutSlash(String base) {
    return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }
}
