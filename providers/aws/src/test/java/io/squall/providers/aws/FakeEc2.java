package io.squall.providers.aws;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A small stateful EC2 on 127.0.0.1 speaking the real EC2 Query protocol: form-encoded POSTs with
 * {@code Action} and {@code Version=2016-11-15}, XML answers in EC2's namespace with the element
 * names of the EC2 API reference, and errors in EC2's {@code <Response><Errors>} envelope.
 *
 * <p>Covers RunInstances (ClientToken idempotency with parameter-mismatch check, MinCount all or
 * nothing against a per type/zone/market capacity, instance limits per market, spot MaxPrice,
 * placement groups, tag specifications, network interfaces with EC2's rules for them: no top-level
 * subnet or security groups beside them, the primary one on card 0 as device 0 and never
 * {@code efa-only}, one interface per card and device), DescribeInstances (filters {@code tag:K},
 * {@code tag-key}, {@code instance-state-name}, {@code instance-id}, {@code instance-type},
 * {@code availability-zone}; InstanceId list; pagination), TerminateInstances, CreateTags,
 * CreatePlacementGroup, DescribeInstanceTypeOfferings, DescribeSpotPriceHistory and
 * DescribeInstanceTopology, and failure injection. Time is compressed: an instance is
 * {@code pending} in its RunInstances answer and {@code running} afterwards, and
 * {@code shutting-down} in its TerminateInstances answer and {@code terminated} afterwards.
 */
public final class FakeEc2 implements AutoCloseable {
  static final String NAMESPACE = "http://ec2.amazonaws.com/doc/2016-11-15/";
  static final String VERSION = "2016-11-15";
  static final String OWNER = "123456789012";
  private static final Pattern INSTANCE_ID = Pattern.compile("i-[0-9a-f]{8}([0-9a-f]{9})?");
  private static final Set<String> MARKETS = Set.of("spot", "on-demand");

  /** One request as received: its action and every form parameter. */
  public record Request(String action, Map<String, String> params) {
    public String get(String name) {
      return params.get(name);
    }

    /** The values of {@code prefix.1}, {@code prefix.2}, ... */
    public List<String> list(String prefix) {
      List<String> out = new ArrayList<>();
      for (int i = 1; params.containsKey(prefix + "." + i); i++) {
        out.add(params.get(prefix + "." + i));
      }
      return out;
    }
  }

  /** An instance as the fake holds it. */
  static final class FakeInstance {
    final String id;
    final String reservationId;
    final String imageId;
    final String type;
    final String zone;
    final String subnetId;
    final String market;
    final String placementGroup;
    final int launchIndex;
    final String launchTime;
    final Map<String, String> tags = new LinkedHashMap<>();
    String state = "pending";

    FakeInstance(String id, String reservationId, String imageId, String type, String zone, String subnetId,
        String market, String placementGroup, int launchIndex) {
      this.id = id;
      this.reservationId = reservationId;
      this.imageId = imageId;
      this.type = type;
      this.zone = zone;
      this.subnetId = subnetId;
      this.market = market;
      this.placementGroup = placementGroup;
      this.launchIndex = launchIndex;
      this.launchTime = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    boolean alive() {
      return !state.equals("terminated") && !state.equals("shutting-down");
    }
  }

  private record Reservation(String id, String signature, List<String> instanceIds) {}

  private record Failure(String action, int status, String code, String message) {}

  /** An EC2 error answer. */
  static final class Ec2Error extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;

    Ec2Error(int status, String code, String message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final Object lock = new Object();
  private final Map<String, Set<String>> zonesByType = new TreeMap<>();
  private final Map<String, Double> spotPrices = new TreeMap<>();
  private final Map<String, Integer> capacity = new HashMap<>();
  private final Map<String, Integer> instanceLimits = new HashMap<>();
  private final Map<String, FakeInstance> instances = new LinkedHashMap<>();
  private final Map<String, Reservation> byToken = new HashMap<>();
  private final Set<String> placementGroups = new TreeSet<>();
  private final Deque<Failure> failures = new ArrayDeque<>();
  private final Map<String, Hold> holds = new HashMap<>();
  private final List<Request> requests = new ArrayList<>();
  private final Instant priceTime = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
  private int pageSize = 1000;
  private long ids = 0x0a1b2c3d4e5f6000L;

  public FakeEc2() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** EC2 sells {@code type} in these zones (DescribeInstanceTypeOfferings). */
  public FakeEc2 offer(String type, String... zones) {
    synchronized (lock) {
      zonesByType.computeIfAbsent(type, t -> new TreeSet<>()).addAll(List.of(zones));
    }
    return this;
  }

  /** The current Linux spot price of {@code type} in {@code zone}; without one, spot is not sold there. */
  public FakeEc2 spotPrice(String type, String zone, double price) {
    synchronized (lock) {
      spotPrices.put(type + "/" + zone, price);
    }
    return this;
  }

  /** How many more instances of {@code type} in {@code zone} under {@code market} (spot, on-demand) exist; unlimited by default. */
  public FakeEc2 capacity(String type, String zone, String market, int instances) {
    synchronized (lock) {
      capacity.put(key(type, zone, requireMarket(market)), instances);
    }
    return this;
  }

  /** The account's limit of live instances under {@code market}; unlimited by default. */
  public FakeEc2 instanceLimit(String market, int limit) {
    synchronized (lock) {
      instanceLimits.put(requireMarket(market), limit);
    }
    return this;
  }

  /** DescribeInstances pages at most this many instances. */
  public FakeEc2 pageSize(int size) {
    synchronized (lock) {
      pageSize = size;
    }
    return this;
  }

  /** The next call of {@code action} (any call when null) fails with this EC2 error. */
  public void failNext(String action, int status, String code, String message) {
    synchronized (lock) {
      failures.add(new Failure(action, status, code, message));
    }
  }

  /**
   * The next call of {@code action} is held on arrival, before EC2 does anything with it, until
   * the test lets it through ({@link Hold#proceed}) or answers it with an error ({@link Hold#fail}):
   * a controller can be "crashed" while its call is in flight.
   */
  public Hold holdNext(String action) {
    synchronized (lock) {
      Hold hold = new Hold();
      holds.put(action, hold);
      return hold;
    }
  }

  /** A call held by {@link #holdNext}. */
  public static final class Hold {
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile Ec2Error answer;

    /** Waits until the held call has arrived. */
    public void awaitArrival(Duration limit) throws InterruptedException {
      if (!arrived.await(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("the held call did not arrive within " + limit);
      }
    }

    /** EC2 carries out the call and answers it. */
    public void proceed() {
      released.countDown();
    }

    /** EC2 does nothing and answers with this error. */
    public void fail(int status, String code, String message) {
      answer = new Ec2Error(status, code, message);
      released.countDown();
    }

    private void await() throws InterruptedException {
      arrived.countDown();
      released.await();
      if (answer != null) {
        throw answer;
      }
    }
  }

  public List<Request> requests(String action) {
    synchronized (lock) {
      return requests.stream().filter(r -> r.action().equals(action)).toList();
    }
  }

  public Request lastRequest(String action) {
    List<Request> all = requests(action);
    if (all.isEmpty()) {
      throw new AssertionError("no " + action + " request");
    }
    return all.get(all.size() - 1);
  }

  /** A copy of an instance's tags and state, or null when the fake never made it. */
  public Map<String, String> tags(String instanceId) {
    synchronized (lock) {
      FakeInstance i = instances.get(instanceId);
      return i == null ? null : Map.copyOf(i.tags);
    }
  }

  public String state(String instanceId) {
    synchronized (lock) {
      FakeInstance i = instances.get(instanceId);
      return i == null ? null : i.state;
    }
  }

  /** Ids of the instances that are not shutting down or terminated. */
  public List<String> aliveIds() {
    synchronized (lock) {
      return instances.values().stream().filter(FakeInstance::alive).map(i -> i.id).toList();
    }
  }

  public Set<String> placementGroups() {
    synchronized (lock) {
      return Set.copyOf(placementGroups);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  // ---- HTTP ----

  private void handle(HttpExchange exchange) throws IOException {
    String requestId = UUID.randomUUID().toString();
    int status = 200;
    String body;
    try {
      Request request = parse(exchange);
      Hold hold;
      synchronized (lock) {
        requests.add(request);
        hold = holds.remove(request.action());
      }
      if (hold != null) {
        hold.await();
      }
      synchronized (lock) {
        Failure failure = takeFailure(request.action());
        if (failure != null) {
          throw new Ec2Error(failure.status(), failure.code(), failure.message());
        }
        body = dispatch(request, requestId);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (Ec2Error e) {
      status = e.status;
      body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>" + esc(e.code)
          + "</Code><Message>" + esc(e.getMessage()) + "</Message></Error></Errors><RequestID>" + requestId
          + "</RequestID></Response>";
    } catch (RuntimeException e) {
      status = 500;
      body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>InternalError</Code><Message>"
          + esc("An internal error has occurred: " + e) + "</Message></Error></Errors><RequestID>" + requestId
          + "</RequestID></Response>";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/xml;charset=UTF-8");
    exchange.getResponseHeaders().set("x-amzn-RequestId", requestId);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Request parse(HttpExchange exchange) throws IOException {
    Map<String, String> params = new LinkedHashMap<>();
    String query = exchange.getRequestURI().getRawQuery();
    if (query != null) {
      decodeForm(query, params);
    }
    byte[] body = exchange.getRequestBody().readAllBytes();
    decodeForm(new String(body, StandardCharsets.UTF_8), params);
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    String action = params.getOrDefault("Action", "");
    Request request = new Request(action, Map.copyOf(params));
    if (!"POST".equals(exchange.getRequestMethod()) && !"GET".equals(exchange.getRequestMethod())) {
      throw new Ec2Error(400, "InvalidAction", "The action or operation requested is invalid.");
    }
    if (auth == null || !auth.startsWith("AWS4-HMAC-SHA256 ")) {
      throw new Ec2Error(401, "AuthFailure", "AWS was not able to validate the provided access credentials");
    }
    if (!VERSION.equals(params.get("Version"))) {
      throw new Ec2Error(400, "InvalidParameterValue", "Invalid API version: " + params.get("Version"));
    }
    return request;
  }

  private static void decodeForm(String form, Map<String, String> into) {
    for (String pair : form.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      into.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
  }

  private Failure takeFailure(String action) {
    for (Failure f : failures) {
      if (f.action() == null || f.action().equals(action)) {
        failures.remove(f);
        return f;
      }
    }
    return null;
  }

  private String dispatch(Request r, String requestId) {
    switch (r.action()) {
      case "RunInstances":
        return runInstances(r, requestId);
      case "DescribeInstances":
        return describeInstances(r, requestId);
      case "TerminateInstances":
        return terminateInstances(r, requestId);
      case "CreateTags":
        return createTags(r, requestId);
      case "CreatePlacementGroup":
        return createPlacementGroup(r, requestId);
      case "DescribeInstanceTypeOfferings":
        return describeInstanceTypeOfferings(r, requestId);
      case "DescribeSpotPriceHistory":
        return describeSpotPriceHistory(r, requestId);
      case "DescribeInstanceTopology":
        return describeInstanceTopology(r, requestId);
      default:
        throw new Ec2Error(400, "InvalidAction", "The action " + r.action() + " is not valid for this web service.");
    }
  }

  // ---- actions ----

  /**
   * Checks the request's {@code NetworkInterface.N} as EC2 does and returns the primary one's
   * subnet, or null when there are none.
   */
  private static String primaryInterfaceSubnet(Request r) {
    if (!r.params().containsKey("NetworkInterface.1.DeviceIndex")) {
      return null;
    }
    if (r.get("SubnetId") != null) {
      throw new Ec2Error(400, "InvalidParameterCombination",
          "Network interfaces and an instance-level subnet ID may not be specified on the same request");
    }
    if (r.get("SecurityGroupId.1") != null) {
      throw new Ec2Error(400, "InvalidParameterCombination",
          "Network interfaces and an instance-level security groups may not be specified on the same request");
    }
    String primarySubnet = null;
    Set<String> slots = new TreeSet<>();
    for (int n = 1; r.params().containsKey("NetworkInterface." + n + ".DeviceIndex"); n++) {
      String prefix = "NetworkInterface." + n + ".";
      String card = r.params().getOrDefault(prefix + "NetworkCardIndex", "0");
      String device = r.get(prefix + "DeviceIndex");
      if (!slots.add(card + "/" + device)) {
        throw new Ec2Error(400, "InvalidParameterValue", "Each network interface requires a unique device index"
            + " on its network card; " + card + "/" + device + " is given twice.");
      }
      if (r.get(prefix + "SubnetId") == null) {
        throw new Ec2Error(400, "MissingParameter", "The request must contain the parameter " + prefix + "SubnetId");
      }
      if (card.equals("0") && device.equals("0")) {
        if ("efa-only".equals(r.get(prefix + "InterfaceType"))) {
          throw new Ec2Error(400, "InvalidParameterCombination", "An EFA-only network interface cannot be the"
              + " primary network interface.");
        }
        primarySubnet = r.get(prefix + "SubnetId");
      }
    }
    if (primarySubnet == null) {
      throw new Ec2Error(400, "InvalidParameterValue", "A primary network interface (network card index 0,"
          + " device index 0) is required.");
    }
    return primarySubnet;
  }

  private String runInstances(Request r, String requestId) {
    String token = r.get("ClientToken");
    String type = required(r, "InstanceType");
    int min = Integer.parseInt(required(r, "MinCount"));
    int max = Integer.parseInt(required(r, "MaxCount"));
    String subnet = r.get("SubnetId") != null ? r.get("SubnetId") : primaryInterfaceSubnet(r);
    String zone = r.get("Placement.AvailabilityZone");
    String group = r.get("Placement.GroupName");
    String market = "spot".equals(r.get("InstanceMarketOptions.MarketType")) ? "spot" : "on-demand";
    String signature = String.join("|", type, "" + min, "" + max, Objects.toString(subnet), Objects.toString(zone),
        Objects.toString(group), market);
    if (token != null && byToken.containsKey(token)) {
      Reservation first = byToken.get(token);
      if (!first.signature().equals(signature)) {
        throw new Ec2Error(400, "IdempotentParameterMismatch", "The client token you have provided is associated"
            + " with a resource that is already deleted or has different parameters. Please use a different client token.");
      }
      return reservationXml("RunInstancesResponse", requestId, first);
    }
    String image = r.get("ImageId");
    if (image == null && r.get("LaunchTemplate.LaunchTemplateId") == null
        && r.get("LaunchTemplate.LaunchTemplateName") == null) {
      throw new Ec2Error(400, "MissingParameter", "The request must contain the parameter ImageId");
    }
    if (min < 1 || max < min) {
      throw new Ec2Error(400, "InvalidParameterValue", "Invalid value '" + min + "' for minCount. Requested instance"
          + " count (" + min + ") must be between 1 and the maximum instance count (" + max + ").");
    }
    if (zone == null) {
      throw new Ec2Error(400, "InvalidParameterCombination", "The fake needs Placement.AvailabilityZone");
    }
    if (!zonesByType.getOrDefault(type, Set.of()).contains(zone)) {
      throw new Ec2Error(400, "Unsupported", "Your requested instance type (" + type + ") is not supported in your"
          + " requested Availability Zone (" + zone + "). Please retry your request by not specifying an Availability"
          + " Zone or choosing " + String.join(", ", zonesByType.getOrDefault(type, Set.of())) + ".");
    }
    if (group != null && !placementGroups.contains(group)) {
      throw new Ec2Error(400, "InvalidPlacementGroup.Unknown", "The Placement Group '" + group + "' is unknown.");
    }
    if (market.equals("spot")) {
      Double price = spotPrices.get(type + "/" + zone);
      if (price == null) {
        throw new Ec2Error(400, "InsufficientInstanceCapacity", "There is no Spot capacity available that matches"
            + " your request.");
      }
      String maxPrice = r.get("InstanceMarketOptions.SpotOptions.MaxPrice");
      if (maxPrice != null && Double.parseDouble(maxPrice) < price) {
        throw new Ec2Error(400, "SpotMaxPriceTooLow", "Your Spot request price of " + maxPrice + " is lower than the"
            + " minimum required Spot request fulfillment price of " + price + ".");
      }
    }
    Integer limit = instanceLimits.get(market);
    if (limit != null) {
      long live = instances.values().stream().filter(i -> i.alive() && i.market.equals(market)).count();
      if (live + min > limit) {
        if (market.equals("spot")) {
          throw new Ec2Error(400, "MaxSpotInstanceCountExceeded", "Max spot instance count exceeded");
        }
        throw new Ec2Error(400, "VcpuLimitExceeded", "You have requested more vCPU capacity than your current vCPU"
            + " limit of " + (limit * 192) + " allows for the instance bucket that the specified instance type belongs"
            + " to. Please visit http://aws.amazon.com/contact-us/ec2-request to request an adjustment to this limit.");
      }
    }
    String capacityKey = key(type, zone, market);
    int available = capacity.getOrDefault(capacityKey, Integer.MAX_VALUE);
    if (available < min) {
      Set<String> others = new TreeSet<>(zonesByType.get(type));
      others.remove(zone);
      throw new Ec2Error(400, "InsufficientInstanceCapacity", "We currently do not have sufficient " + type
          + " capacity in the Availability Zone you requested (" + zone + "). Our system will be working on"
          + " provisioning additional capacity. You can currently get " + type + " capacity by not specifying an"
          + " Availability Zone in your request or choosing " + String.join(", ", others) + ".");
    }
    int count = Math.min(max, available);
    if (available != Integer.MAX_VALUE) {
      capacity.put(capacityKey, available - count);
    }
    Map<String, String> tags = instanceTags(r);
    String reservationId = "r-" + nextHex();
    List<String> made = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      FakeInstance instance = new FakeInstance("i-" + nextHex(), reservationId,
          image == null ? "ami-0fromtemplate00000" : image, type, zone, subnet, market, group, i);
      instance.tags.putAll(tags);
      instances.put(instance.id, instance);
      made.add(instance.id);
    }
    Reservation reservation = new Reservation(reservationId, signature, List.copyOf(made));
    if (token != null) {
      byToken.put(token, reservation);
    }
    String xml = reservationXml("RunInstancesResponse", requestId, reservation);
    made.forEach(id -> instances.get(id).state = "running");
    return xml;
  }

  private static Map<String, String> instanceTags(Request r) {
    Map<String, String> tags = new LinkedHashMap<>();
    for (int s = 1; r.params().containsKey("TagSpecification." + s + ".ResourceType"); s++) {
      if (!"instance".equals(r.get("TagSpecification." + s + ".ResourceType"))) {
        continue;
      }
      String prefix = "TagSpecification." + s + ".Tag.";
      for (int t = 1; r.params().containsKey(prefix + t + ".Key"); t++) {
        tags.put(r.get(prefix + t + ".Key"), r.params().getOrDefault(prefix + t + ".Value", ""));
      }
    }
    return tags;
  }

  private String describeInstances(Request r, String requestId) {
    List<String> ids = r.list("InstanceId");
    for (String id : ids) {
      known(id);
    }
    Map<String, List<String>> filters = filters(r);
    List<FakeInstance> matching = new ArrayList<>();
    for (FakeInstance i : instances.values()) {
      if ((ids.isEmpty() || ids.contains(i.id)) && matches(i, filters)) {
        matching.add(i);
      }
    }
    int from = r.get("NextToken") == null ? 0 : Integer.parseInt(r.get("NextToken"));
    int size = r.get("MaxResults") == null ? pageSize : Math.min(pageSize, Integer.parseInt(r.get("MaxResults")));
    List<FakeInstance> page = matching.subList(Math.min(from, matching.size()), Math.min(from + size, matching.size()));
    Map<String, List<String>> byReservation = new LinkedHashMap<>();
    for (FakeInstance i : page) {
      byReservation.computeIfAbsent(i.reservationId, k -> new ArrayList<>()).add(i.id);
    }
    StringBuilder s = open("DescribeInstancesResponse", requestId).append("<reservationSet>");
    byReservation.forEach((rid, members) -> {
      s.append("<item>");
      reservationBody(s, new Reservation(rid, "", members));
      s.append("</item>");
    });
    s.append("</reservationSet>");
    if (from + size < matching.size()) {
      s.append(el("nextToken", Integer.toString(from + size)));
    }
    return close(s, "DescribeInstancesResponse");
  }

  private boolean matches(FakeInstance i, Map<String, List<String>> filters) {
    for (Map.Entry<String, List<String>> f : filters.entrySet()) {
      String name = f.getKey();
      List<String> values = f.getValue();
      boolean ok;
      if (name.startsWith("tag:")) {
        ok = values.contains(i.tags.get(name.substring(4)));
      } else if (name.equals("tag-key")) {
        ok = values.stream().anyMatch(i.tags::containsKey);
      } else if (name.equals("instance-state-name")) {
        ok = values.contains(i.state);
      } else if (name.equals("instance-id")) {
        ok = values.contains(i.id);
      } else if (name.equals("instance-type")) {
        ok = values.contains(i.type);
      } else if (name.equals("availability-zone")) {
        ok = values.contains(i.zone);
      } else {
        throw new Ec2Error(400, "InvalidParameterValue", "The filter '" + name + "' is invalid");
      }
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private String terminateInstances(Request r, String requestId) {
    List<String> ids = r.list("InstanceId");
    if (ids.isEmpty()) {
      throw new Ec2Error(400, "MissingParameter", "The request must contain the parameter InstanceId");
    }
    List<FakeInstance> targets = new ArrayList<>();
    for (String id : ids) {
      targets.add(known(id));
    }
    StringBuilder s = open("TerminateInstancesResponse", requestId).append("<instancesSet>");
    for (FakeInstance i : targets) {
      String previous = i.state;
      String current = previous.equals("terminated") ? "terminated" : "shutting-down";
      s.append("<item>").append(el("instanceId", i.id))
          .append("<currentState>").append(el("code", "" + code(current))).append(el("name", current))
          .append("</currentState><previousState>").append(el("code", "" + code(previous)))
          .append(el("name", previous)).append("</previousState></item>");
      if (i.alive()) {
        String capacityKey = key(i.type, i.zone, i.market);
        capacity.computeIfPresent(capacityKey, (k, v) -> v + 1);
      }
      i.state = "terminated";
    }
    s.append("</instancesSet>");
    return close(s, "TerminateInstancesResponse");
  }

  private String createTags(Request r, String requestId) {
    List<String> ids = r.list("ResourceId");
    Map<String, String> tags = new LinkedHashMap<>();
    for (int t = 1; r.params().containsKey("Tag." + t + ".Key"); t++) {
      tags.put(r.get("Tag." + t + ".Key"), r.params().getOrDefault("Tag." + t + ".Value", ""));
    }
    if (ids.isEmpty() || tags.isEmpty()) {
      throw new Ec2Error(400, "MissingParameter", "The request must contain the parameter "
          + (ids.isEmpty() ? "ResourceId" : "Tag"));
    }
    List<FakeInstance> targets = new ArrayList<>();
    for (String id : ids) {
      targets.add(known(id));
    }
    targets.forEach(i -> i.tags.putAll(tags));
    return close(open("CreateTagsResponse", requestId).append(el("return", "true")), "CreateTagsResponse");
  }

  private String createPlacementGroup(Request r, String requestId) {
    String name = required(r, "GroupName");
    String strategy = r.params().getOrDefault("Strategy", "cluster");
    if (!placementGroups.add(name)) {
      throw new Ec2Error(400, "InvalidPlacementGroup.Duplicate", "The Placement Group '" + name + "' already exists.");
    }
    StringBuilder s = open("CreatePlacementGroupResponse", requestId).append(el("return", "true"))
        .append("<placementGroup>").append(el("groupName", name)).append(el("state", "available"))
        .append(el("strategy", strategy)).append(el("groupId", "pg-" + nextHex())).append("</placementGroup>");
    return close(s, "CreatePlacementGroupResponse");
  }

  private String describeInstanceTypeOfferings(Request r, String requestId) {
    String locationType = r.params().getOrDefault("LocationType", "region");
    if (!locationType.equals("availability-zone")) {
      throw new Ec2Error(400, "InvalidParameterValue", "The fake only answers LocationType availability-zone");
    }
    Map<String, List<String>> filters = filters(r);
    StringBuilder s = open("DescribeInstanceTypeOfferingsResponse", requestId).append("<instanceTypeOfferingSet>");
    zonesByType.forEach((type, zones) -> {
      for (String zone : zones) {
        if (allow(filters, "instance-type", type) && allow(filters, "location", zone)) {
          s.append("<item>").append(el("instanceType", type)).append(el("locationType", locationType))
              .append(el("location", zone)).append("</item>");
        }
      }
    });
    s.append("</instanceTypeOfferingSet>");
    return close(s, "DescribeInstanceTypeOfferingsResponse");
  }

  private String describeSpotPriceHistory(Request r, String requestId) {
    Map<String, List<String>> filters = filters(r);
    List<String> types = r.list("InstanceType");
    List<String> products = r.list("ProductDescription");
    String zoneParam = r.get("AvailabilityZone");
    StringBuilder s = open("DescribeSpotPriceHistoryResponse", requestId).append("<spotPriceHistorySet>");
    spotPrices.forEach((typeZone, price) -> {
      String type = typeZone.substring(0, typeZone.indexOf('/'));
      String zone = typeZone.substring(typeZone.indexOf('/') + 1);
      boolean wanted = (types.isEmpty() || types.contains(type)) && (zoneParam == null || zoneParam.equals(zone))
          && (products.isEmpty() || products.contains("Linux/UNIX")) && allow(filters, "instance-type", type)
          && allow(filters, "availability-zone", zone) && allow(filters, "product-description", "Linux/UNIX");
      if (wanted) {
        s.append("<item>").append(el("instanceType", type)).append(el("productDescription", "Linux/UNIX"))
            .append(el("spotPrice", String.format(Locale.ROOT, "%.6f", price)))
            .append(el("timestamp", priceTime.toString())).append(el("availabilityZone", zone)).append("</item>");
      }
    });
    s.append("</spotPriceHistorySet>").append("<nextToken/>");
    return close(s, "DescribeSpotPriceHistoryResponse");
  }

  private String describeInstanceTopology(Request r, String requestId) {
    List<String> ids = r.list("InstanceId");
    StringBuilder s = open("DescribeInstanceTopologyResponse", requestId).append("<instanceSet>");
    for (FakeInstance i : instances.values()) {
      if ((!ids.isEmpty() && !ids.contains(i.id)) || !i.state.equals("running")) {
        continue;
      }
      String group = i.placementGroup == null ? "none" : i.placementGroup;
      s.append("<item>").append(el("instanceId", i.id)).append(el("instanceType", i.type));
      if (i.placementGroup != null) {
        s.append(el("groupName", i.placementGroup));
      }
      s.append("<networkNodeSet>")
          .append(el("item", "nn-" + i.zone + "-spine"))
          .append(el("item", "nn-" + i.zone + "-" + group))
          .append(el("item", "nn-" + i.zone + "-" + group + "-leaf" + (i.launchIndex / 4)))
          .append("</networkNodeSet>")
          .append(el("availabilityZone", i.zone)).append(el("zoneId", "use1-az" + i.zone.charAt(i.zone.length() - 1)))
          .append("</item>");
    }
    s.append("</instanceSet>");
    return close(s, "DescribeInstanceTopologyResponse");
  }

  // ---- XML ----

  private String reservationXml(String root, String requestId, Reservation reservation) {
    StringBuilder s = open(root, requestId);
    reservationBody(s, reservation);
    return close(s, root);
  }

  private void reservationBody(StringBuilder s, Reservation reservation) {
    s.append(el("reservationId", reservation.id())).append(el("ownerId", OWNER)).append("<groupSet/>")
        .append("<instancesSet>");
    for (String id : reservation.instanceIds()) {
      instanceXml(s, instances.get(id));
    }
    s.append("</instancesSet>");
  }

  private static void instanceXml(StringBuilder s, FakeInstance i) {
    s.append("<item>").append(el("instanceId", i.id)).append(el("imageId", i.imageId))
        .append("<instanceState>").append(el("code", "" + code(i.state))).append(el("name", i.state))
        .append("</instanceState>")
        .append(el("privateDnsName", "ip-10-0-0-" + (10 + i.launchIndex) + ".ec2.internal"))
        .append("<dnsName/><reason/>")
        .append(el("amiLaunchIndex", Integer.toString(i.launchIndex)))
        .append("<productCodes/>")
        .append(el("instanceType", i.type))
        .append(el("launchTime", i.launchTime))
        .append("<placement>").append(el("availabilityZone", i.zone));
    if (i.placementGroup != null) {
      s.append(el("groupName", i.placementGroup));
    }
    s.append(el("tenancy", "default")).append("</placement>")
        .append("<monitoring><state>disabled</state></monitoring>");
    if (i.subnetId != null) {
      s.append(el("subnetId", i.subnetId)).append(el("vpcId", "vpc-0fake0000000000001"));
    }
    s.append(el("privateIpAddress", "10.0.0." + (10 + i.launchIndex)))
        .append(el("architecture", "x86_64")).append(el("rootDeviceType", "ebs"))
        .append(el("rootDeviceName", "/dev/xvda")).append(el("virtualizationType", "hvm"));
    if (i.market.equals("spot")) {
      s.append(el("spotInstanceRequestId", "sir-" + i.id.substring(2, 10))).append(el("instanceLifecycle", "spot"));
    }
    if (!i.tags.isEmpty()) {
      s.append("<tagSet>");
      i.tags.forEach((k, v) -> s.append("<item>").append(el("key", k)).append(el("value", v)).append("</item>"));
      s.append("</tagSet>");
    }
    s.append("</item>");
  }

  private static StringBuilder open(String root, String requestId) {
    return new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<").append(root).append(" xmlns=\"")
        .append(NAMESPACE).append("\">").append(el("requestId", requestId));
  }

  private static String close(StringBuilder s, String root) {
    return s.append("</").append(root).append('>').toString();
  }

  private static String el(String name, String value) {
    return "<" + name + ">" + esc(value) + "</" + name + ">";
  }

  private static String esc(String v) {
    if (v == null) {
      return "";
    }
    return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  // ---- helpers ----

  private FakeInstance known(String id) {
    if (!INSTANCE_ID.matcher(id).matches()) {
      throw new Ec2Error(400, "InvalidInstanceID.Malformed", "Invalid id: \"" + id + "\"");
    }
    FakeInstance i = instances.get(id);
    if (i == null) {
      throw new Ec2Error(400, "InvalidInstanceID.NotFound", "The instance ID '" + id + "' does not exist");
    }
    return i;
  }

  private static Map<String, List<String>> filters(Request r) {
    Map<String, List<String>> filters = new LinkedHashMap<>();
    for (int f = 1; r.params().containsKey("Filter." + f + ".Name"); f++) {
      filters.put(r.get("Filter." + f + ".Name"), r.list("Filter." + f + ".Value"));
    }
    return filters;
  }

  private static boolean allow(Map<String, List<String>> filters, String name, String value) {
    List<String> values = filters.get(name);
    return values == null || values.contains(value);
  }

  private static String required(Request r, String name) {
    String v = r.get(name);
    if (v == null) {
      throw new Ec2Error(400, "MissingParameter", "The request must contain the parameter " + name);
    }
    return v;
  }

  private static int code(String state) {
    switch (state) {
      case "pending":
        return 0;
      case "running":
        return 16;
      case "shutting-down":
        return 32;
      case "terminated":
        return 48;
      case "stopping":
        return 64;
      default:
        return 80;
    }
  }

  private static String requireMarket(String market) {
    if (!MARKETS.contains(market)) {
      throw new IllegalArgumentException("market must be spot or on-demand: " + market);
    }
    return market;
  }

  private static String key(String type, String zone, String market) {
    return type + "/" + zone + "/" + market;
  }

  private String nextHex() {
    ids += 0x1f3d;
    return String.format("%017x", ids);
  }
}
