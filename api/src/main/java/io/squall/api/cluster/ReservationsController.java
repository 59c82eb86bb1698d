package io.squall.api.cluster;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestAttribute;
import io.squall.api.auth.Caller;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.jobs.ReservationJobs;
import io.squall.api.scheduling.Wakeup;
import io.squall.api.state.ApiException;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.web.JsonBody;
import io.squall.api.web.TextRules;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import io.squall.core.model.Job;
import io.squall.core.model.Node;
import io.squall.core.model.Reservation;
import io.squall.core.reserve.ReservationException;
import io.squall.core.reserve.ReservationRules;
import io.squall.core.sbatch.BeginTime;
import io.squall.core.sbatch.TimeLimit;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Advanced reservations, as {@code scontrol create/show/delete reservation} manages them: operators
 * create and delete them, everyone sees them. A reservation holds its nodes over its window for
 * the jobs that name it ({@code --reservation}); the scheduler keeps other jobs off them. Created
 * and deleted through the single writer, so that the check against running jobs and other
 * reservations and the change are one step, and durable before they are answered.
 */
@Controller("/v1/reservations")
@Tag(name = "cluster")
public final class ReservationsController {
  private static final int MAX_NAME = 200;
  /** Times past this are refused: every database keeps them, and no reservation is meant for later. */
  private static final Instant LATEST = Instant.parse("9999-01-01T00:00:00Z");
  private static final Set<String> FIELDS = Set.of("name", "start_time", "end_time", "duration", "nodes",
      "node_count", "partition", "users", "accounts", "flags");
  /** The flags a request may set; SPEC_NODES is Slurm's own mark of named nodes. */
  private static final Set<Reservation.Flag> SETTABLE = EnumSet.of(Reservation.Flag.MAINT, Reservation.Flag.OVERLAP,
      Reservation.Flag.IGNORE_JOBS, Reservation.Flag.FLEX);

  private final StateWriter writer;
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final InstantSource clock;
  private final Wakeup scheduler;
  private final ReservationJobs jobs;

  public ReservationsController(StateWriter writer, ClusterLayout layout, SquallConfig config, InstantSource clock,
      Wakeup scheduler, ReservationJobs jobs) {
    this.jobs = jobs;
    this.writer = writer;
    this.layout = layout;
    this.config = config;
    this.clock = clock;
    this.scheduler = scheduler;
  }

  @Operation(summary = "Create an advanced reservation (operators), as scontrol create reservation: {\"name\","
      + " \"start_time\", \"duration\" or \"end_time\", \"nodes\" or \"node_count\", \"partition\", \"users\","
      + " \"accounts\", \"flags\"}")
  @Post(consumes = MediaType.APPLICATION_JSON)
  public CompletableFuture<HttpResponse<Map<String, Object>>> create(
      @RequestAttribute(Caller.ATTRIBUTE) Caller caller, @Body String text) {
    operator(caller, "create");
    JsonBody body = JsonBody.parse(text, FIELDS);
    Instant now = clock.instant();
    String name = body.optText("name");
    if (name != null) {
      TextRules.plain("name", name, MAX_NAME);
      if (name.isBlank() || !name.matches("[A-Za-z0-9_.:@+-]+")) {
        throw ApiException.badRequest("name: " + TextRules.quoted(name) + " is not a reservation name (letters,"
            + " digits and _ . : @ + - only)");
      }
    }
    Instant start = time("start_time", body.optText("start_time"), now);
    Instant end = time("end_time", body.optText("end_time"), now);
    Duration duration = duration(body.optText("duration"));
    if (end != null && duration != null) {
      throw ApiException.badRequest("duration, end_time: give one of them, not both");
    }
    String nodesText = body.optText("nodes");
    Long count = body.optLong("node_count");
    if (nodesText != null && count != null) {
      throw ApiException.badRequest("nodes, node_count: give one of them, not both");
    }
    if (count != null && (count < 1 || count > 1_000_000)) {
      throw ApiException.badRequest("node_count: Invalid node count specified (" + count + ")");
    }
    List<String> nodes = nodes(nodesText);
    String partition = TextRules.plain("partition", body.optText("partition"), MAX_NAME);
    List<String> users = names("users", body.textList("users"));
    List<String> accounts = names("accounts", body.textList("accounts"));
    for (String a : accounts) {
      if (layout.accounts().stream().noneMatch(x -> x.name().equals(a))) {
        throw ApiException.badRequest("accounts: Invalid account or account/partition combination specified ("
            + TextRules.quoted(a) + " is not an account)");
      }
    }
    Set<Reservation.Flag> flags = flags(body.textList("flags"));
    ReservationRules.Draft draft = new ReservationRules.Draft(name, start, end, duration, nodes,
        count == null ? null : count.intValue(), partition, users, accounts, flags);
    List<String> nodeNames = layout.nodes().stream().map(Node::name).toList();
    return writer.write(b -> {
      List<Job> holding = b.holdingJobs().stream().map(StoredJob::job).toList();
      Reservation r;
      try {
        r = ReservationRules.create(draft, nodeNames, layout.partitions(), b.reservations(), holding, b.now());
      } catch (ReservationException e) {
        throw ApiException.badRequest(e.getMessage());
      }
      if (r.end().isAfter(LATEST)) {
        throw ApiException.badRequest("Invalid time specified (EndTime " + r.end() + " is after " + LATEST + ")");
      }
      b.addReservation(r);
      b.onCommit(scheduler::wake);
      return HttpResponse.<Map<String, Object>>status(HttpStatus.CREATED).body(view(r, b.now()));
    });
  }

  @Operation(summary = "Every advanced reservation, by name, as scontrol show reservation lists them")
  @Get
  public Map<String, Object> list() {
    Instant now = clock.instant();
    List<Map<String, Object>> out = new ArrayList<>();
    writer.state().reservations().forEach(r -> out.add(view(r, now)));
    return Map.of("reservations", out);
  }

  @Operation(summary = "One advanced reservation")
  @Get("/{name}")
  public Map<String, Object> one(@PathVariable String name) {
    Reservation r = writer.state().reservation(name);
    if (r == null) {
      throw ApiException.notFound("Reservation " + TextRules.quoted(name) + " not found");
    }
    return view(r, clock.instant());
  }

  @Operation(summary = "Delete an advanced reservation (operators); refused while a job runs in it")
  @Delete("/{name}")
  public CompletableFuture<Map<String, Object>> delete(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String name, @Nullable @Body String ignored) {
    operator(caller, "delete");
    return writer.write(b -> {
      Reservation r = b.reservation(name);
      if (r == null) {
        throw ApiException.notFound("Requested reservation is invalid (no reservation " + TextRules.quoted(name) + ")");
      }
      List<Job> holding = b.holdingJobs().stream().map(StoredJob::job).toList();
      if (ReservationRules.inUse(r, holding)) {
        throw ApiException.conflict("Requested reservation is in use (jobs run in " + name
            + "; a reservation cannot be deleted while jobs run in it)");
      }
      b.removeReservation(name);
      jobs.reservationGone(b, name, "deleted by " + caller.user());
      b.onCommit(scheduler::wake);
      return Map.<String, Object>of("name", name, "deleted", true);
    });
  }

  /** What the API shows of a reservation: scontrol show reservation's fields. */
  static Map<String, Object> view(Reservation r, Instant now) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", r.name());
    m.put("start_time", r.start().toString());
    m.put("end_time", r.end().toString());
    m.put("duration_seconds", Duration.between(r.start(), r.end()).getSeconds());
    m.put("nodes", Hostlist.compress(r.nodes()));
    m.put("node_count", r.nodes().size());
    m.put("partition", r.partition());
    m.put("users", r.users());
    m.put("accounts", r.accounts());
    List<String> flags = new ArrayList<>();
    for (Reservation.Flag f : Reservation.Flag.values()) {
      if (r.has(f)) {
        flags.add(f.name());
      }
    }
    m.put("flags", flags);
    m.put("state", r.activeAt(now) ? "ACTIVE" : "INACTIVE");
    return m;
  }

  private Instant time(String field, String text, Instant now) {
    if (text == null) {
      return null;
    }
    Instant t;
    try {
      t = BeginTime.parse(text, now, config.zoneId());
    } catch (RuntimeException e) {
      throw ApiException.badRequest(field + ": Invalid time specified (" + TextRules.quoted(text) + ": "
          + e.getMessage() + ")");
    }
    if (t.isAfter(LATEST)) {
      throw ApiException.badRequest(field + ": Invalid time specified (" + TextRules.quoted(text) + " is after "
          + LATEST + ")");
    }
    return t;
  }

  private static Duration duration(String text) {
    if (text == null) {
      return null;
    }
    int seconds;
    try {
      seconds = TimeLimit.parseSeconds(text);
    } catch (RuntimeException e) {
      throw ApiException.badRequest("duration: Invalid duration " + TextRules.quoted(text)
          + " (minutes, [days-]hh:mm:ss or UNLIMITED)");
    }
    if (seconds == TimeLimit.UNLIMITED) {
      return Reservation.UNLIMITED;
    }
    if (seconds <= 0) {
      throw ApiException.badRequest("duration: must be more than 0, not " + TextRules.quoted(text));
    }
    return Duration.ofSeconds(seconds);
  }

  private static List<String> nodes(String text) {
    if (text == null) {
      return null;
    }
    TextRules.plain("nodes", text, 100_000);
    if (text.equalsIgnoreCase("ALL")) {
      return List.of("ALL");
    }
    try {
      List<String> out = Hostlist.expand(text);
      if (out.isEmpty()) {
        throw ApiException.badRequest("nodes: names no node");
      }
      return out;
    } catch (HostlistException e) {
      throw ApiException.badRequest("nodes: Invalid node name specified (" + e.getMessage() + ")");
    }
  }

  private static List<String> names(String field, List<String> names) {
    for (String n : names) {
      TextRules.plain(field, n, MAX_NAME);
      if (n.isBlank() || n.contains(",")) {
        throw ApiException.badRequest(field + ": " + TextRules.quoted(n) + " is not a name");
      }
      if (n.startsWith("-")) {
        throw ApiException.badRequest(field + ": " + TextRules.quoted(n) + ": excluding names with '-' is not"
            + " supported; list who may use the reservation");
      }
    }
    return List.copyOf(new java.util.LinkedHashSet<>(names));
  }

  private static Set<Reservation.Flag> flags(List<String> texts) {
    Set<Reservation.Flag> out = EnumSet.noneOf(Reservation.Flag.class);
    for (String t : texts) {
      Reservation.Flag f = null;
      for (Reservation.Flag x : SETTABLE) {
        if (x.name().equalsIgnoreCase(t.strip()) || x.name().replace("_", "").equalsIgnoreCase(t.strip())) {
          f = x;
        }
      }
      if (f == null) {
        throw ApiException.badRequest("flags: " + TextRules.quoted(t) + " is not a flag Squall knows (MAINT, OVERLAP,"
            + " IGNORE_JOBS, FLEX)");
      }
      out.add(f);
    }
    return out;
  }

  private static void operator(Caller caller, String verb) {
    if (!caller.operator()) {
      throw ApiException.forbidden("Access/permission denied: only operators and administrators can " + verb
          + " reservations");
    }
  }
}
