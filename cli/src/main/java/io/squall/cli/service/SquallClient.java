package io.squall.cli.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.agent.CaFile;
import io.squall.agent.ControllerAddresses;
import io.squall.agent.TlsFileException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Function;
import javax.net.ssl.SSLException;

/**
 * The REST calls the Slurm verbs make, one method per endpoint of docs/rest-api.md. Keeps no
 * state between calls, so it is safe to share between threads. Answers are read with
 * {@link JsonAnswer} and bodies written with {@link JsonBody} (jackson-core's streaming API), not
 * Jackson's data binding, whose set-up would cost a verb more than the rest of its run.
 */
public final class SquallClient {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  /** Long enough for a busy service's listing; a hung service should not hang a script forever. */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private final ServiceAddress address;
  private final ControllerAddresses controllers;
  private final Transport plain = new PlainHttpTransport(CONNECT_TIMEOUT, REQUEST_TIMEOUT);
  /** For https addresses; null when there are none and no CA file. */
  private final Transport tls;

  /** The answer of a cancel or action: {@code {"jobs":[JOB..]}}, the jobs it changed. */
  private static final Transport.Answer<List<JobInfo>> CHANGED = list("jobs", JobInfo::from);
  /** Any JSON answer, as plain values: the call's success is all that counts, or its values are printed. */
  private static final Transport.Answer<Object> ANY = JsonAnswer::values;

  public SquallClient(ServiceAddress address) {
    this.address = address;
    try {
      this.controllers = ControllerAddresses.parse(address.url());
    } catch (IllegalArgumentException e) {
      throw new ServiceConfigException("the service URL: " + e.getMessage());
    }
    this.tls = tls(address, controllers);
  }

  /**
   * The https client, trusting the CA file or the JDK's CAs; a CA file is read, and its errors
   * reported, whatever the scheme. Plain http addresses go through {@link PlainHttpTransport}.
   */
  private static Transport tls(ServiceAddress address, ControllerAddresses controllers) {
    boolean https = controllers.all().stream().anyMatch(u -> u.getScheme().equalsIgnoreCase("https"));
    if (address.caFile() == null && !https) {
      return null;
    }
    try {
      // HTTP/1.1: the service speaks it, and h2c upgrade headers only confuse proxies.
      HttpClient http = CaFile.trusting(HttpClient.newBuilder(), address.caFile())
          .version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT).build();
      return new JdkHttpTransport(http, REQUEST_TIMEOUT);
    } catch (TlsFileException e) {
      throw new ServiceConfigException(e.getMessage() + " (SQUALL_CA_FILE or 'ca-file =' in " + address.configFile() + ")");
    }
  }

  public ServiceAddress address() {
    return address;
  }

  /** Every controller address configured, in the order given (several with high availability). */
  public List<URI> controllers() {
    return controllers.all();
  }

  /**
   * Whether the controller at {@code base} answers {@code GET /ha} (open, like {@code /health}) as
   * up: the leader, or a standby ready to take over. Asks that address alone; follows no leader.
   */
  public boolean ping(URI base) {
    try {
      Transport.Reply<Object> r = transport(base).exchange("GET", URI.create(base + "/ha"),
          Map.of("Accept", "application/json"), null, ANY);
      return r.status() >= 200 && r.status() < 300 && r.read() && r.value() instanceof Map<?, ?> m
          && "UP".equals(m.get("status"));
    } catch (IOException | JsonAnswer.MalformedAnswerException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** {@code POST /v1/jobs} with a JSON body: 201 with the id, or 200 for a test-only submission. */
  public SubmitResult submit(Submission submission) {
    return post("/v1/jobs", submission.body(), object(SubmitResult::from));
  }

  /** {@code GET /v1/jobs} with every field, once per job id when several are named. */
  public List<JobInfo> jobs(JobQuery query) {
    return jobs(query, null);
  }

  /**
   * {@code GET /v1/jobs} asking only for {@code fields} and for those the client itself reads
   * ({@code job_id}, and what the query filters here); each job's other components are null.
   *
   * @param fields summary field names; null for every field (no {@code fields=} sent)
   */
  public List<JobInfo> jobs(JobQuery query, Set<String> fields) {
    return jobs(query, fields, Function.identity());
  }

  /**
   * {@link #jobs(JobQuery, Set)}, each job made into what {@code each} makes of it as soon as it
   * is read: squeue renders each job's line there, as 100,000 jobs held at once cost it a quarter
   * of a second in garbage collection.
   */
  public <R> List<R> jobs(JobQuery query, Set<String> fields, Function<JobInfo, R> each) {
    List<JobQuery> queries = query.perJob();
    if (queries.size() > 1) {
      // One answer per named job, merged: a few jobs, so they are read whole first.
      return merged(queries, q -> jobsAnswer(q, fields, Function.identity()), JobInfo::jobId).stream()
          .map(each).toList();
    }
    return jobsAnswer(query, fields, each);
  }

  private <R> List<R> jobsAnswer(JobQuery q, Set<String> fields, Function<JobInfo, R> each) {
    Map<String, String> parameters = q.parameters();
    if (fields != null) {
      Set<String> asked = new LinkedHashSet<>(List.of("job_id"));
      asked.addAll(fields);
      asked.addAll(q.fieldsKept());
      parameters.put("fields", String.join(",", asked));
      // Each job as an array of those values, the names said once: 8 MB rather than 20 at 100,000
      // jobs, parsed without a map per job. A service from before rows answers objects: read too.
      parameters.put("rows", "true");
    }
    return send("GET", "/v1/jobs", parameters, null, list("jobs", a -> {
      JobInfo job = JobInfo.from(a);
      return q.keeps(job) ? each.apply(job) : null;
    }));
  }

  /**
   * The batch script job {@code id} was submitted with ({@code GET /v1/jobs/{id}}), or null for an
   * interactive allocation, which has none.
   */
  public String batchScript(String id) {
    return send("GET", "/v1/jobs/" + segment(id), Map.of(), null,
        object(a -> Boolean.FALSE.equals(a.bool("batch")) ? null : a.string("script")));
  }

  /** {@code GET /v1/jobs/{id}}: the job with its request and allocation. */
  public JobInfo job(String id) {
    return send("GET", "/v1/jobs/" + segment(id), Map.of(), null, object(JobInfo::from));
  }

  /**
   * {@code DELETE /v1/jobs/{id}}: cancels, or with a signal other than the service's default
   * (KILL) only signals.
   *
   * @return the jobs changed (an array id changes every task)
   */
  public List<JobInfo> cancel(String id, String signal) {
    Map<String, String> query = signal == null ? Map.of() : Map.of("signal", signal);
    return send("DELETE", "/v1/jobs/" + segment(id), query, null, CHANGED);
  }

  /** {@code POST /v1/jobs/{id}/hold|release|requeue}; returns the jobs changed. */
  public List<JobInfo> act(String id, JobAction action) {
    return send("POST", "/v1/jobs/" + segment(id) + "/" + action.path(), Map.of(), null, CHANGED);
  }

  /**
   * {@code POST /v1/jobs/{id}/update}: changes a pending job ({@code scontrol update job}).
   *
   * @param fields {@code time_limit}, {@code partition}, ... as docs/rest-api.md names them
   * @return the jobs changed
   */
  public List<JobInfo> update(String id, Map<String, String> fields) {
    return post("/v1/jobs/" + segment(id) + "/update", fields, CHANGED);
  }

  /** {@code POST /v1/jobs/{id}/steps}: a new step of a running interactive allocation. */
  public StepGrant step(String id) {
    return send("POST", "/v1/jobs/" + segment(id) + "/steps", Map.of(), null, object(StepGrant::from));
  }

  /** {@code GET /v1/jobs/{id}/environment}: the allocation's {@code SLURM_*} variables. */
  public Map<String, String> allocationEnvironment(String id) {
    Map<String, String> env = send("GET", "/v1/jobs/" + segment(id) + "/environment", Map.of(), null,
        object(a -> a.stringMap("environment")));
    return env == null ? Map.of() : env;
  }

  /**
   * {@code POST /v1/jobs/{id}/complete}: relinquishes an interactive allocation, with its
   * command's exit code (and the signal that killed it, or null).
   */
  public List<JobInfo> complete(String id, int exitCode, Integer signal) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("exit_code", exitCode);
    if (signal != null) {
      body.put("signal", signal);
    }
    return post("/v1/jobs/" + segment(id) + "/complete", body, CHANGED);
  }

  /** {@code POST /v1/nodes/{name}/drain} (operators): no new job starts on the node. */
  public void drain(String node, String reason) {
    post("/v1/nodes/" + segment(node) + "/drain", Map.of("reason", reason), ANY);
  }

  /** {@code POST /v1/nodes/{name}/resume} (operators): a drained node takes work again. */
  public void resume(String node) {
    send("POST", "/v1/nodes/" + segment(node) + "/resume", Map.of(), null, ANY);
  }

  /** {@code POST /v1/reservations} (operators): creates an advanced reservation ({@code scontrol create reservation}). */
  public ReservationInfo createReservation(Map<String, Object> body) {
    return post("/v1/reservations", body, object(ReservationInfo::from));
  }

  /** {@code GET /v1/reservations}: every advanced reservation, by name. */
  public List<ReservationInfo> reservations() {
    return send("GET", "/v1/reservations", Map.of(), null, list("reservations", ReservationInfo::from));
  }

  /** {@code DELETE /v1/reservations/{name}} (operators). */
  public void deleteReservation(String name) {
    send("DELETE", "/v1/reservations/" + segment(name), Map.of(), null, ANY);
  }

  private <T> T post(String path, Map<String, ?> body, Transport.Answer<T> answer) {
    return send("POST", path, Map.of(), JsonBody.write(body), answer);
  }

  /** {@code GET /v1/priorities}: pending jobs' priority factors and the weights (sprio). */
  public Priorities priorities(Map<String, String> query) {
    return send("GET", "/v1/priorities", query, null, object(Priorities::from));
  }

  /** {@code GET /v1/nodes}. */
  public List<NodeInfo> nodes() {
    return send("GET", "/v1/nodes", Map.of(), null, list("nodes", NodeInfo::from));
  }

  /** {@code GET /v1/partitions}. */
  public List<PartitionInfo> partitions() {
    return send("GET", "/v1/partitions", Map.of(), null, list("partitions", PartitionInfo::from));
  }

  /**
   * {@code GET /v1/shares}: associations' fair-share standing.
   *
   * @param query {@code users}, {@code accounts} (comma-separated) and {@code all}; absent ones left out
   */
  public Shares shares(Map<String, String> query) {
    return send("GET", "/v1/shares", query, null, object(Shares::from));
  }

  /** {@code GET /v1/accounting}, once per job id when several are named. */
  public List<AccountingJob> accounting(AccountingQuery query) {
    return merged(query.perJob(), q -> {
      return send("GET", "/v1/accounting", q.parameters(), null, list("jobs", AccountingJob::from)).stream()
          .filter(q::keeps).toList();
    }, AccountingJob::jobId);
  }

  /**
   * {@code GET /v1/reports/cost}: the chargeback report, as the service answers it. Read as a
   * tree with Jackson's data binding: the report command is no Slurm verb, and prints the tree.
   *
   * @param query {@code since}, {@code until} (instants), {@code account}, {@code by}; absent ones left out
   */
  public JsonNode costReport(Map<String, String> query) {
    return new ObjectMapper().valueToTree(send("GET", "/v1/reports/cost", query, null, ANY));
  }

  /** The answers to each query in turn, each job once (the first answer naming it wins). */
  private static <Q, T> List<T> merged(List<Q> queries, Function<Q, List<T>> ask, Function<T, String> id) {
    if (queries.size() == 1) {
      return ask.apply(queries.get(0));
    }
    Map<String, T> byId = new LinkedHashMap<>();
    for (Q q : queries) {
      ask.apply(q).forEach(t -> byId.putIfAbsent(id.apply(t), t));
    }
    return List.copyOf(byId.values());
  }

  /**
   * {@code method path?query} to the leading controller, with {@code json} as the body when not
   * null: a 2xx answer's JSON as {@code answer} reads it while it arrives; an answer the client
   * cannot read, or any other answer, is a ServiceException saying why.
   */
  private <T> T send(String method, String path, Map<String, String> query, String json, Transport.Answer<T> answer) {
    StringJoiner q = new StringJoiner("&", "?", "").setEmptyValue("");
    query.forEach((k, v) -> q.add(encode(k) + "=" + encode(v)));
    String target = path + q;
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept", "application/json");
    if (json != null) {
      headers.put("Content-Type", "application/json");
    }
    if (address.token() != null) {
      headers.put("Authorization", "Bearer " + address.token());
    }
    Transport.Reply<T> response;
    try {
      response = controllers.send(
          base -> transport(base).exchange(method, URI.create(base + target), headers, json, answer),
          Transport.Reply::header);
    } catch (JsonAnswer.MalformedAnswerException e) {
      throw unreadable(e.getMessage());
    } catch (Transport.Timeout e) {
      throw new ServiceUnreachableException(address.url(), e.connecting()
          ? "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s"
          : "no answer within " + REQUEST_TIMEOUT.toSeconds() + " s");
    } catch (ConnectException e) {
      throw new ServiceUnreachableException(address.url(), reason(e, "Connection refused"));
    } catch (SSLException e) {
      throw TlsFailure.explain(address, e);
    } catch (IOException e) {
      throw new ServiceUnreachableException(address.url(), reason(e, e.getClass().getSimpleName()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServiceUnreachableException(address.url(), "interrupted");
    }
    int status = response.status();
    if (status >= 200 && status < 300) {
      if (!response.read()) {
        throw new ServiceException(status, "the service answered " + status + " without a JSON body");
      }
      return response.value();
    }
    throw new ServiceException(status, errorMessage(status, response));
  }

  /** The service's own words when it gave them; otherwise the status and the start of the body. */
  private static String errorMessage(int status, Transport.Reply<?> response) {
    try {
      if (JsonAnswer.values(new ByteArrayInputStream(response.body())) instanceof Map<?, ?> map
          && map.get("error") instanceof String error) {
        return error;
      }
    } catch (JsonAnswer.MalformedAnswerException | IOException e) {
      // Not the service's JSON: its start is shown below.
    }
    String text = response.text().strip();
    int end = text.indexOf('\n');
    text = end < 0 ? text : text.substring(0, end);
    if (text.length() > 200) {
      text = text.substring(0, 200) + "...";
    }
    return "the service answered HTTP " + status + (text.isEmpty() ? "" : ": " + text);
  }

  /** An answer that is one object, made into a record by {@code read}. */
  private static <T> Transport.Answer<T> object(Function<JsonAnswer, T> read) {
    return in -> read.apply(JsonAnswer.parse(in));
  }

  /** An answer's list {@code field} ({@code {"jobs":[..]}}), each element read by {@code read}; empty when absent. */
  private static <T> Transport.Answer<List<T>> list(String field, Function<JsonAnswer, T> read) {
    return in -> {
      List<T> list = JsonAnswer.list(in, field, read);
      return list == null ? List.of() : list;
    };
  }

  private static ServiceException unreadable(String why) {
    return new ServiceException(200, "cannot read the service's answer: " + why);
  }

  private Transport transport(URI base) {
    return tls != null && base.getScheme().equalsIgnoreCase("https") ? tls : plain;
  }

  /** HttpClient often throws ConnectException without a message; the cause has the words. */
  private static String reason(Throwable e, String fallback) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        return t.getMessage();
      }
    }
    return fallback;
  }

  private static String encode(String s) {
    // Commas stay literal: they separate list values, and an encoded one could be read as data.
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("%2C", ",");
  }

  private static String segment(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
