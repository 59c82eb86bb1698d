package io.squall.providers.gcp;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stateful, in-process stand-in for the Compute Engine v1 REST API, speaking its JSON on
 * 127.0.0.1: machine types per zone; {@code instances.bulkInsert} with count/minCount all or
 * nothing against a capacity per (machine type, zone, provisioning model), requestId
 * deduplication, labels and metadata; instances get, delete and aggregatedList with a label
 * filter; regional resource policies (409 alreadyExists); zonal and regional operations that
 * are RUNNING until polled ({@code get} or {@code wait}) and carry {@code error.errors[]} as GCE's
 * do; and failure injection with GCE's HTTP error envelope or operation errors.
 */
public final class FakeGce implements AutoCloseable {
  private static final String PREFIX = "/compute/v1/projects/";
  private static final Pattern FILTER_TERM =
      Pattern.compile("labels\\.([a-z0-9_-]+)\\s*=\\s*\"?([^\"\\s)]*)\"?");

  /** One request as received, for assertions on the wire format. */
  public record Request(String method, String path, Map<String, String> query, String body) {
    public JsonObject json() {
      return JsonParser.parseString(body).getAsJsonObject();
    }
  }

  /** An HTTP failure in GCE's error envelope. */
  record HttpFailure(int status, String reason, String message) {}

  private final String project;
  private final String region;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final AtomicLong ids = new AtomicLong(5_123_456_789_000L);

  private final Map<String, TreeSet<String>> machineTypes = new HashMap<>();
  private final Map<String, Integer> capacity = new HashMap<>();
  private final Map<String, Map<String, JsonObject>> instances = new TreeMap<>();
  private final Map<String, Op> operations = new HashMap<>();
  private final Map<String, String> requestIds = new HashMap<>();
  private final Map<String, JsonObject> policies = new TreeMap<>();
  private final Map<String, Deque<HttpFailure>> httpFailures = new HashMap<>();
  private final Deque<String[]> bulkInsertOperationFailures = new ArrayDeque<>();
  private final List<Request> requests = new ArrayList<>();
  private int pollsUntilDone = 1;

  /** An operation: its JSON, how many polls until DONE, and the error it ends with. */
  private static final class Op {
    final JsonObject json;
    int pollsLeft;

    Op(JsonObject json, int pollsLeft) {
      this.json = json;
      this.pollsLeft = pollsLeft;
    }
  }

  public FakeGce(String project, String region) throws IOException {
    this.project = project;
    this.region = region;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** The base address for {@code GcpSettings.endpoint}. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  // ---- set-up and failure injection ----

  /** The zone sells this machine type (unlimited capacity until {@link #capacity} says otherwise). */
  public synchronized FakeGce offer(String zone, String machineType) {
    machineTypes.computeIfAbsent(zone, z -> new TreeSet<>()).add(machineType);
    return this;
  }

  /** How many more instances of this type, zone and provisioning model (STANDARD or SPOT) fit. */
  synchronized FakeGce capacity(String machineType, String zone, String provisioningModel, int instances) {
    capacity.put(machineType + "/" + zone + "/" + provisioningModel, instances);
    return this;
  }

  /** The next call of this kind ({@code bulkInsert}, {@code delete}, {@code get}, {@code aggregatedList},
   * {@code machineTypes}, {@code resourcePolicies}, {@code operations}, or {@code *} for any) fails so. */
  synchronized void failNext(String kind, HttpFailure failure) {
    httpFailures.computeIfAbsent(kind, k -> new ArrayDeque<>()).add(failure);
  }

  /** The next bulkInsert is accepted, then its operation ends with this error and makes nothing. */
  synchronized void failNextBulkInsertOperation(String code, String message) {
    bulkInsertOperationFailures.add(new String[] {code, message});
  }

  /** GCE's answer when a zone has no machines left. */
  void exhaustNextBulkInsert(String zone) {
    failNextBulkInsertOperation("ZONE_RESOURCE_POOL_EXHAUSTED", "The zone '" + zoneUrlPath(zone)
        + "' does not have enough resources available to fulfill the request.  Try a different zone, or try again later.");
  }

  /** GCE's 403 when the GPU quota is used up. */
  static HttpFailure quotaExceeded(String region) {
    return new HttpFailure(403, "quotaExceeded",
        "Quota 'NVIDIA_H100_GPUS' exceeded.  Limit: 0.0 in region " + region + ".");
  }

  /** GCE's 429 when the project sends too many requests. */
  static HttpFailure rateLimited() {
    return new HttpFailure(429, "rateLimitExceeded",
        "Rate Limit Exceeded: Quota exceeded for quota metric 'Queries' and limit 'Queries per minute'.");
  }

  /** How many polls an operation stays RUNNING (default 1). */
  synchronized void pollsUntilDone(int polls) {
    this.pollsUntilDone = polls;
  }

  /** GCE keeps requestIds for a limited time: forgets them all, as if that time had passed. */
  synchronized void forgetRequestIds() {
    requestIds.clear();
  }

  /** Sets an instance's status (RUNNING, STOPPING, TERMINATED, ...). */
  synchronized void setStatus(String zone, String name, String status) {
    instances.get(zone).get(name).addProperty("status", status);
  }

  // ---- inspection ----

  synchronized List<Request> requests() {
    return List.copyOf(requests);
  }

  public synchronized List<Request> requests(String method, String pathSuffix) {
    return requests.stream().filter(r -> r.method().equals(method) && r.path().endsWith(pathSuffix)).toList();
  }

  public synchronized int instanceCount() {
    return instances.values().stream().mapToInt(Map::size).sum();
  }

  public synchronized JsonObject instance(String zone, String name) {
    Map<String, JsonObject> z = instances.get(zone);
    return z == null ? null : z.get(name).deepCopy();
  }

  public synchronized JsonObject policy(String name) {
    JsonObject p = policies.get(name);
    return p == null ? null : p.deepCopy();
  }

  synchronized int operationCount() {
    return operations.size();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  // ---- HTTP ----

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String path = exchange.getRequestURI().getRawPath();
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      Reply reply;
      try {
        reply = route(new Request(exchange.getRequestMethod(), path, query, body));
      } catch (RuntimeException e) {
        reply = error(500, "backendError", "fake GCE: " + e);
      }
      byte[] bytes = reply.json.toString().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json; charset=UTF-8");
      exchange.sendResponseHeaders(reply.status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  private record Reply(int status, JsonElement json) {}

  private synchronized Reply route(Request r) {
    requests.add(r);
    if (!r.path().startsWith(PREFIX + project + "/")) {
      return error(404, "notFound", "The resource 'projects/" + r.path() + "' was not found");
    }
    String[] p = r.path().substring(PREFIX.length() + project.length() + 1).split("/");
    String m = r.method();
    String kind = kind(m, p);
    Deque<HttpFailure> failures = httpFailures.get(kind);
    HttpFailure injected = failures == null ? null : failures.poll();
    if (injected == null && httpFailures.containsKey("*")) {
      injected = httpFailures.get("*").poll();
    }
    if (injected != null) {
      return error(injected.status(), injected.reason(), injected.message());
    }
    switch (kind) {
      case "bulkInsert":
        return bulkInsert(p[1], r);
      case "get":
        return getInstance(p[1], p[3]);
      case "delete":
        return deleteInstance(p[1], p[3], r.query().get("requestId"));
      case "aggregatedList":
        return aggregatedList(r.query().getOrDefault("filter", ""));
      case "machineTypes":
        return machineType(p[1], p[3]);
      case "resourcePolicies":
        return insertPolicy(p[1], r);
      case "operations":
        return operation(p[0].equals("zones") ? "zones/" + p[1] : "regions/" + p[1], p[3]);
      default:
        return error(404, "notFound", "The resource '" + r.path() + "' was not found");
    }
  }

  private static String kind(String method, String[] p) {
    if (p.length == 2 && p[0].equals("aggregated") && p[1].equals("instances") && method.equals("GET")) {
      return "aggregatedList";
    }
    if (p.length >= 4 && p[0].equals("zones") && p[2].equals("instances")) {
      if (p.length == 4 && p[3].equals("bulkInsert") && method.equals("POST")) {
        return "bulkInsert";
      }
      if (p.length == 4 && method.equals("GET")) {
        return "get";
      }
      if (p.length == 4 && method.equals("DELETE")) {
        return "delete";
      }
    }
    if (p.length == 4 && p[0].equals("zones") && p[2].equals("machineTypes") && method.equals("GET")) {
      return "machineTypes";
    }
    if (p.length == 3 && p[0].equals("regions") && p[2].equals("resourcePolicies") && method.equals("POST")) {
      return "resourcePolicies";
    }
    if ((p.length == 4 && method.equals("GET") || p.length == 5 && p[4].equals("wait") && method.equals("POST"))
        && (p[0].equals("zones") || p[0].equals("regions")) && p[2].equals("operations")) {
      return "operations";
    }
    return "unknown";
  }

  // ---- instances ----

  private Reply bulkInsert(String zone, Request r) {
    String requestId = r.query().get("requestId");
    if (requestId != null && requestIds.containsKey(requestId)) {
      return new Reply(200, operations.get(requestIds.get(requestId)).json.deepCopy());
    }
    JsonObject body = r.json();
    long count = body.has("count") ? body.get("count").getAsLong() : 0;
    long minCount = body.has("minCount") ? body.get("minCount").getAsLong() : count;
    JsonObject props = body.getAsJsonObject("instanceProperties");
    JsonObject perInstance = body.has("perInstanceProperties") ? body.getAsJsonObject("perInstanceProperties") : new JsonObject();
    if (body.has("namePattern") || body.has("sourceInstanceTemplate")) {
      return error(400, "invalid", "fake GCE: only perInstanceProperties names and instanceProperties are supported");
    }
    if (props == null || !props.has("machineType")) {
      return error(400, "invalid", "Invalid value for field 'resource.instanceProperties.machineType': ''. Machine type must be specified.");
    }
    if (count < 1 || perInstance.size() != count || minCount < 1 || minCount > count) {
      return error(400, "invalid", "Invalid value for field 'resource.count': '" + count
          + "'. count must equal the number of perInstanceProperties (" + perInstance.size() + ") and minCount " + minCount + " be 1..count.");
    }
    String machineType = GceNames.lastSegment(props.get("machineType").getAsString());
    if (!machineTypes.getOrDefault(zone, new TreeSet<>()).contains(machineType)) {
      return error(400, "invalid", "Invalid value for field 'resource.instanceProperties.machineType': '"
          + machineType + "'. Machine type with name '" + machineType + "' does not exist in zone '" + zone + "'.");
    }
    JsonObject scheduling = props.has("scheduling") ? props.getAsJsonObject("scheduling") : new JsonObject();
    String model = scheduling.has("provisioningModel") ? scheduling.get("provisioningModel").getAsString() : "STANDARD";
    if (model.equals("SPOT") && !scheduling.has("instanceTerminationAction")) {
      return error(400, "invalid", "Invalid value for field 'resource.instanceProperties.scheduling.instanceTerminationAction'. Spot VMs need an instance termination action.");
    }
    for (JsonElement rp : props.has("resourcePolicies") ? props.getAsJsonArray("resourcePolicies") : new JsonArray()) {
      if (!policies.containsKey(GceNames.lastSegment(rp.getAsString()))) {
        return error(404, "notFound", "The resource '" + regionUrlPath() + "/resourcePolicies/"
            + GceNames.lastSegment(rp.getAsString()) + "' was not found");
      }
    }

    JsonObject op = newOperation("zones/" + zone, "bulkInsert", PREFIX + project + "/zones/" + zone + "/instances");
    if (requestId != null) {
      requestIds.put(requestId, op.get("name").getAsString());
    }
    String[] injected = bulkInsertOperationFailures.poll();
    Map<String, JsonObject> zoneInstances = instances.computeIfAbsent(zone, z -> new TreeMap<>());
    List<String> names = new ArrayList<>(perInstance.keySet());
    String taken = names.stream().filter(zoneInstances::containsKey).findFirst().orElse(null);
    String capacityKey = machineType + "/" + zone + "/" + model;
    int free = capacity.getOrDefault(capacityKey, Integer.MAX_VALUE);
    if (injected != null) {
      fail(op, injected[0], injected[1], injected[0].contains("QUOTA") ? 403 : 503);
    } else if (taken != null) {
      fail(op, "RESOURCE_ALREADY_EXISTS", "The resource '" + zoneUrlPath(zone) + "/instances/" + taken + "' already exists", 409);
    } else if (free < minCount) {
      fail(op, "ZONE_RESOURCE_POOL_EXHAUSTED", "The zone '" + zoneUrlPath(zone)
          + "' does not have enough resources available to fulfill the request.  Try a different zone, or try again later.", 503);
    } else {
      int made = (int) Math.min(count, free);
      if (free != Integer.MAX_VALUE) {
        capacity.put(capacityKey, free - made);
      }
      for (String name : names.subList(0, made)) {
        zoneInstances.put(name, newInstance(zone, name, props));
      }
    }
    return new Reply(200, op.deepCopy());
  }

  private JsonObject newInstance(String zone, String name, JsonObject props) {
    JsonObject i = new JsonObject();
    i.addProperty("kind", "compute#instance");
    i.addProperty("id", Long.toUnsignedString(ids.incrementAndGet()));
    i.addProperty("creationTimestamp", "2025-01-01T00:00:00.000-08:00");
    i.addProperty("name", name);
    i.addProperty("zone", "https://www.googleapis.com" + PREFIX + project + "/zones/" + zone);
    i.addProperty("machineType", "https://www.googleapis.com" + PREFIX + project + "/zones/" + zone
        + "/machineTypes/" + GceNames.lastSegment(props.get("machineType").getAsString()));
    i.addProperty("status", "PROVISIONING");
    for (String field : new String[] {"labels", "scheduling", "networkInterfaces", "disks", "serviceAccounts"}) {
      if (props.has(field)) {
        i.add(field, props.get(field).deepCopy());
      }
    }
    if (props.has("metadata")) {
      JsonObject metadata = props.getAsJsonObject("metadata").deepCopy();
      metadata.addProperty("kind", "compute#metadata");
      metadata.addProperty("fingerprint", "c3F1YWxs");
      i.add("metadata", metadata);
    }
    if (props.has("resourcePolicies")) {
      JsonArray urls = new JsonArray();
      for (JsonElement rp : props.getAsJsonArray("resourcePolicies")) {
        urls.add("https://www.googleapis.com" + PREFIX + project + "/regions/" + region + "/resourcePolicies/"
            + GceNames.lastSegment(rp.getAsString()));
      }
      i.add("resourcePolicies", urls);
    }
    i.addProperty("selfLink", "https://www.googleapis.com" + PREFIX + project + "/zones/" + zone + "/instances/" + name);
    return i;
  }

  private Reply getInstance(String zone, String name) {
    JsonObject i = instances.getOrDefault(zone, Map.of()).get(name);
    if (i == null) {
      return error(404, "notFound", "The resource '" + zoneUrlPath(zone) + "/instances/" + name + "' was not found");
    }
    return new Reply(200, i.deepCopy());
  }

  private Reply deleteInstance(String zone, String name, String requestId) {
    if (requestId != null && requestIds.containsKey(requestId)) {
      return new Reply(200, operations.get(requestIds.get(requestId)).json.deepCopy());
    }
    JsonObject i = instances.getOrDefault(zone, new HashMap<>()).remove(name);
    if (i == null) {
      return error(404, "notFound", "The resource '" + zoneUrlPath(zone) + "/instances/" + name + "' was not found");
    }
    String model = i.has("scheduling") && i.getAsJsonObject("scheduling").has("provisioningModel")
        ? i.getAsJsonObject("scheduling").get("provisioningModel").getAsString() : "STANDARD";
    capacity.computeIfPresent(GceNames.lastSegment(i.get("machineType").getAsString()) + "/" + zone + "/" + model,
        (k, v) -> v + 1);
    JsonObject op = newOperation("zones/" + zone, "delete", PREFIX + project + "/zones/" + zone + "/instances/" + name);
    if (requestId != null) {
      requestIds.put(requestId, op.get("name").getAsString());
    }
    return new Reply(200, op.deepCopy());
  }

  private Reply aggregatedList(String filter) {
    Map<String, String> wanted = new LinkedHashMap<>();
    Matcher m = FILTER_TERM.matcher(filter);
    while (m.find()) {
      wanted.put(m.group(1), m.group(2));
    }
    if (!filter.isBlank() && wanted.isEmpty()) {
      return error(400, "invalid", "Invalid value for field 'filter': '" + filter + "'. Invalid list filter expression.");
    }
    JsonObject items = new JsonObject();
    for (String zone : new TreeSet<>(machineTypes.keySet())) {
      JsonArray list = new JsonArray();
      for (JsonObject i : instances.getOrDefault(zone, Map.of()).values()) {
        JsonObject labels = i.has("labels") ? i.getAsJsonObject("labels") : new JsonObject();
        boolean match = wanted.entrySet().stream()
            .allMatch(e -> labels.has(e.getKey()) && labels.get(e.getKey()).getAsString().equals(e.getValue()));
        if (match) {
          list.add(i.deepCopy());
        }
      }
      JsonObject scoped = new JsonObject();
      if (list.isEmpty()) {
        JsonObject warning = new JsonObject();
        warning.addProperty("code", "NO_RESULTS_ON_PAGE");
        warning.addProperty("message", "There are no results for scope 'zones/" + zone + "' on this page.");
        scoped.add("warning", warning);
      } else {
        scoped.add("instances", list);
      }
      items.add("zones/" + zone, scoped);
    }
    JsonObject reply = new JsonObject();
    reply.addProperty("kind", "compute#instanceAggregatedList");
    reply.addProperty("id", "projects/" + project + "/aggregated/instances");
    reply.add("items", items);
    reply.addProperty("selfLink", "https://www.googleapis.com" + PREFIX + project + "/aggregated/instances");
    return new Reply(200, reply);
  }

  // ---- machine types, resource policies, operations ----

  private Reply machineType(String zone, String type) {
    if (!machineTypes.getOrDefault(zone, new TreeSet<>()).contains(type)) {
      return error(404, "notFound", "The resource '" + zoneUrlPath(zone) + "/machineTypes/" + type + "' was not found");
    }
    JsonObject t = new JsonObject();
    t.addProperty("kind", "compute#machineType");
    t.addProperty("id", "1000001");
    t.addProperty("name", type);
    t.addProperty("description", "208 vCPUs, 1872 GB RAM");
    t.addProperty("guestCpus", 208);
    t.addProperty("memoryMb", 1916928);
    JsonArray accelerators = new JsonArray();
    JsonObject gpu = new JsonObject();
    gpu.addProperty("guestAcceleratorType", "nvidia-h100-80gb");
    gpu.addProperty("guestAcceleratorCount", 8);
    accelerators.add(gpu);
    t.add("accelerators", accelerators);
    t.addProperty("zone", zone);
    t.addProperty("selfLink", "https://www.googleapis.com" + PREFIX + project + "/zones/" + zone + "/machineTypes/" + type);
    return new Reply(200, t);
  }

  private Reply insertPolicy(String inRegion, Request r) {
    JsonObject body = r.json();
    String name = body.has("name") ? body.get("name").getAsString() : "";
    if (!inRegion.equals(region) || !GceNames.RESOURCE_NAME.matcher(name).matches()) {
      return error(400, "invalid", "Invalid value for field 'resource.name': '" + name + "'.");
    }
    if (policies.containsKey(name)) {
      return error(409, "alreadyExists", "The resource '" + regionUrlPath() + "/resourcePolicies/" + name + "' already exists");
    }
    JsonObject policy = body.deepCopy();
    policy.addProperty("kind", "compute#resourcePolicy");
    policy.addProperty("region", "https://www.googleapis.com" + PREFIX + project + "/regions/" + region);
    policy.addProperty("status", "READY");
    policies.put(name, policy);
    JsonObject op = newOperation("regions/" + region, "insert", PREFIX + project + "/regions/" + region + "/resourcePolicies/" + name);
    return new Reply(200, op.deepCopy());
  }

  private Reply operation(String scope, String name) {
    Op op = operations.get(name);
    if (op == null || !op.json.get(scope.startsWith("zones") ? "zone" : "region").getAsString().endsWith(scope)) {
      return error(404, "notFound", "The resource 'projects/" + project + "/" + scope + "/operations/" + name + "' was not found");
    }
    if (op.pollsLeft > 0) {
      op.pollsLeft--;
    }
    if (op.pollsLeft == 0) {
      op.json.addProperty("status", "DONE");
      op.json.addProperty("progress", 100);
      op.json.addProperty("endTime", "2025-01-01T00:00:02.000-08:00");
    }
    return new Reply(200, op.json.deepCopy());
  }

  private JsonObject newOperation(String scope, String type, String target) {
    JsonObject op = new JsonObject();
    String name = "operation-" + ids.incrementAndGet() + "-" + type;
    op.addProperty("kind", "compute#operation");
    op.addProperty("id", Long.toUnsignedString(ids.incrementAndGet()));
    op.addProperty("name", name);
    op.addProperty(scope.startsWith("zones") ? "zone" : "region", "https://www.googleapis.com" + PREFIX + project + "/" + scope);
    op.addProperty("operationType", type);
    op.addProperty("targetLink", "https://www.googleapis.com" + target);
    op.addProperty("status", pollsUntilDone > 0 ? "RUNNING" : "DONE");
    op.addProperty("user", "squall@" + project + ".iam.gserviceaccount.com");
    op.addProperty("progress", 0);
    op.addProperty("insertTime", "2025-01-01T00:00:00.000-08:00");
    op.addProperty("selfLink", "https://www.googleapis.com" + PREFIX + project + "/" + scope + "/operations/" + name);
    operations.put(name, new Op(op, pollsUntilDone));
    return op;
  }

  private static void fail(JsonObject op, String code, String message, int httpStatus) {
    JsonObject e = new JsonObject();
    e.addProperty("code", code);
    e.addProperty("message", message);
    JsonArray errors = new JsonArray();
    errors.add(e);
    JsonObject error = new JsonObject();
    error.add("errors", errors);
    op.add("error", error);
    op.addProperty("httpErrorStatusCode", httpStatus);
    op.addProperty("httpErrorMessage", httpStatus == 403 ? "FORBIDDEN" : httpStatus == 409 ? "CONFLICT" : "SERVICE UNAVAILABLE");
  }

  private Reply error(int status, String reason, String message) {
    JsonObject detail = new JsonObject();
    detail.addProperty("message", message);
    detail.addProperty("domain", reason.equals("quotaExceeded") || reason.equals("rateLimitExceeded") ? "usageLimits" : "global");
    detail.addProperty("reason", reason);
    JsonArray errors = new JsonArray();
    errors.add(detail);
    JsonObject error = new JsonObject();
    error.addProperty("code", status);
    error.addProperty("message", message);
    error.add("errors", errors);
    error.addProperty("status", status == 429 ? "RESOURCE_EXHAUSTED" : status == 403 ? "PERMISSION_DENIED"
        : status == 404 ? "NOT_FOUND" : status == 409 ? "ALREADY_EXISTS" : status == 400 ? "INVALID_ARGUMENT" : "UNAVAILABLE");
    JsonObject envelope = new JsonObject();
    envelope.add("error", error);
    return new Reply(status, envelope);
  }

  private String zoneUrlPath(String zone) {
    return "projects/" + project + "/zones/" + zone;
  }

  private String regionUrlPath() {
    return "projects/" + project + "/regions/" + region;
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return q;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      q.put(k, v);
    }
    return q;
  }
}
