package io.squall.api.jobs;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.squall.api.agents.BatchEnvironment;
import io.squall.api.auth.Caller;
import io.squall.api.state.ApiException;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.state.Submission;
import io.squall.api.store.JobEventRepository;
import io.squall.api.web.JsonBody;
import io.squall.api.web.TextRules;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.sbatch.SignalSpec;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.inject.Named;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import reactor.core.publisher.Flux;

/** {@code /v1/jobs}: submit, list, show, cancel, hold, release, requeue, update. */
@Controller("/v1/jobs")
@Tag(name = "jobs")
public final class JobsController {
  /** Query parameters of a text/x-shellscript submission that are not sbatch options. */
  private static final Set<String> NOT_OPTIONS = Set.of("submit_dir", "script_name", "test_only");

  private final JobCommands commands;
  private final JobViews views;
  private final StateWriter writer;
  private final TestOnly testOnly;
  private final JobEventRepository events;
  private final InstantSource clock;
  private final JobAccess access;
  private final InteractiveSteps steps;
  /** Where the job list is written: off the event loop, which heartbeats need (the blocking routes' pool). */
  private final ExecutorService listExecutor;

  public JobsController(JobCommands commands, JobViews views, StateWriter writer, TestOnly testOnly,
      JobEventRepository events, InstantSource clock, JobAccess access, InteractiveSteps steps,
      @Named(TaskExecutors.IO) ExecutorService listExecutor) {
    this.listExecutor = listExecutor;
    this.steps = steps;
    this.access = access;
    this.commands = commands;
    this.views = views;
    this.writer = writer;
    this.testOnly = testOnly;
    this.events = events;
    this.clock = clock;
  }

  /** The fields of a JSON submission (docs/rest-api.md). */
  private static final Set<String> SUBMIT_FIELDS = Set.of("script", "options", "argv", "submit_dir", "script_name",
      "environment", "script_args", "test_only", "interactive");

  @Operation(summary = "Submit a batch script given as JSON {script, options, argv, ...}, or with interactive true"
      + " an allocation for salloc or srun (no script)")
  @Post(consumes = MediaType.APPLICATION_JSON)
  public CompletableFuture<HttpResponse<Map<String, Object>>> submitJson(
      @RequestAttribute(Caller.ATTRIBUTE) Caller caller, @Body String text) {
    JsonBody body = JsonBody.parse(text, SUBMIT_FIELDS);
    boolean interactive = body.bool("interactive", false);
    String script = interactive ? body.optText("script") : body.text("script");
    if (interactive && script != null) {
      throw ApiException.badRequest("script: an interactive allocation has no batch script; leave it out");
    }
    if (interactive) {
      script = Submission.INTERACTIVE_SCRIPT;
    } else if (script.isEmpty()) {
      throw ApiException.badRequest("script: the batch script is required");
    }
    List<String> options = new ArrayList<>();
    body.scalarMap("options").forEach((k, v) -> options.addAll(option(k, v)));
    options.addAll(body.textList("argv"));
    boolean test = body.bool("test_only", false) | options.remove("--test-only");
    String name = body.optText("script_name");
    String dir = body.optText("submit_dir");
    List<String> args = body.textList("script_args");
    if (interactive) {
      if (!args.isEmpty()) {
        throw ApiException.badRequest("script_args: an interactive allocation has no batch script to pass them to");
      }
      // Slurm requeues batch jobs only: an allocation whose nodes fail or are preempted ends.
      options.add("--no-requeue");
    }
    SubmitInput in = new SubmitInput(script, name == null ? (interactive ? "interactive" : "script") : name, options,
        args, body.textMap("environment"), dir == null ? System.getProperty("user.home") : dir, test, interactive);
    return submit(caller, in);
  }

  @Operation(summary = "Submit a batch script as the body; sbatch long options as query parameters")
  @Post(consumes = "text/x-shellscript")
  public CompletableFuture<HttpResponse<Map<String, Object>>> submitScript(
      @RequestAttribute(Caller.ATTRIBUTE) Caller caller, @Body String script, HttpRequest<?> request) {
    List<String> options = new ArrayList<>();
    request.getParameters().forEach((k, values) -> {
      if (!NOT_OPTIONS.contains(k)) {
        values.forEach(v -> options.addAll(option(k, v)));
      }
    });
    boolean test = flag("test_only", request.getParameters().get("test_only")) | options.remove("--test-only");
    String dir = request.getParameters().get("submit_dir");
    String name = request.getParameters().get("script_name");
    SubmitInput in = new SubmitInput(script, name == null ? "script" : name, options, List.of(), Map.of(),
        dir == null ? System.getProperty("user.home") : dir, test);
    return submit(caller, in);
  }

  private CompletableFuture<HttpResponse<Map<String, Object>>> submit(Caller caller, SubmitInput in) {
    JobCommands.Accepted accepted = commands.check(caller, in);
    if (in.testOnly()) {
      return writer.read(state -> {
        ClusterRules.checkReservation(state.reservations(), accepted.request(), caller.user(), accepted.account(),
            clock.instant());
        Job probe = Job.pending(TestOnly.PROBE_ID, accepted.request(), caller.user(), accepted.account(),
            accepted.qos(), clock.instant());
        return HttpResponse.ok(testOnly.evaluate(state, probe, clock.instant()));
      });
    }
    return commands.submit(caller, in, accepted).thenApply(id -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("job_id", id);
      m.put("warnings", accepted.warnings());
      return HttpResponse.status(HttpStatus.CREATED).body(m);
    });
  }

  /** {@code ?name}, {@code ?name=true} or {@code ?name=false} (null: not given). */
  private static boolean flag(String name, String value) {
    if (value == null || value.equals("false")) {
      return false;
    }
    if (value.isEmpty() || value.equals("true")) {
      return true;
    }
    throw ApiException.badRequest(name + "=" + TextRules.quoted(value) + ": true or false");
  }

  /** {@code --name=value}, or {@code --name} for a flag (an empty value or true). */
  private static List<String> option(String name, Object value) {
    String flag = name.startsWith("-") ? name : "--" + name;
    if (value == null || Boolean.TRUE.equals(value) || "".equals(value)) {
      return List.of(flag);
    }
    if (Boolean.FALSE.equals(value)) {
      return List.of();
    }
    return List.of(flag + "=" + value);
  }

  @Operation(summary = "List jobs; users see their own, operators all. Filters: state and user (comma lists),"
      + " account, partition, name, job. fields=a,b,c gives each job only those summary fields, in the usual order"
      + " (squeue asks for what its format prints); without it, every field; an unknown name answers 400."
      + " rows=true answers {\"fields\":[names],\"rows\":[[values],..]} instead of {\"jobs\":[..]}")
  @Get(produces = MediaType.APPLICATION_JSON)
  public HttpResponse<Flux<byte[]>> list(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Nullable @QueryValue String state, @Nullable @QueryValue String user, @Nullable @QueryValue String account,
      @Nullable @QueryValue String partition, @Nullable @QueryValue String name, @Nullable @QueryValue String job,
      @Nullable @QueryValue String fields, @Nullable @QueryValue String rows) {
    List<JobViews.SummaryField> shownFields = views.fields(fields);
    boolean asRows = flag("rows", rows);
    Set<String> states = state == null ? Set.of() : upper(state);
    Set<String> users = user == null ? Set.of() : Set.of(user.split(","));
    JobKey only = job == null ? null : JobCommands.parseJobId(job);
    var now = clock.instant();
    Iterable<StoredJob> candidates = only == null ? writer.state().jobs()
        : only.taskId() == null ? writer.state().jobsNamed(only.id()) : writer.state().jobsWithId(only.id());
    // Written job by job as the connection takes it (squeue asks for every job): for 100,000 jobs,
    // holding all their maps at once and serialising each value by its run-time type took 2 to 3.7 s
    // and a quarter GB, and the whole answer in one array 1.7 s and 190 MB of humongous arrays.
    // The body's declared type is byte[]: a Flux of anything else would be framed as a JSON array.
    // As rows, each job is an array of its values, the names said once: at 100,000 jobs squeue's
    // answer is 8 MB rather than 20, and its client parses no names and builds no maps.
    List<String> rowFields = asRows ? shownFields.stream().map(JobViews.SummaryField::name).toList() : null;
    Flux<byte[]> body = JobListChunks.of(candidates.iterator(), rowFields, s -> {
      Job j = s.job();
      boolean shown = caller.mayControl(j.user())
          && (states.isEmpty() || states.contains(j.state().name()))
          && (users.isEmpty() || users.contains(j.user()))
          && (account == null || j.account().equals(account))
          && (only == null || only.taskId() == null || only.equals(j.key()) || j.pendingTasks().contains(only.taskId()))
          && (partition == null || partition.equals(j.partition())
              || j.request().placement().partitions().contains(partition))
          && (name == null || name.equals(BatchEnvironment.jobName(s)));
      return shown ? views.summary(s, now, shownFields) : null;
    }, listExecutor);
    return HttpResponse.ok(body).contentType(MediaType.APPLICATION_JSON_TYPE);
  }

  @Operation(summary = "One job with its request, allocation and event history")
  @Get("/{id}")
  @ExecuteOn(TaskExecutors.BLOCKING)
  public Map<String, Object> show(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @PathVariable String id) {
    StoredJob s = access.shown(caller, id);
    return views.detail(s, events.findByJobKeyOrderById(s.key().toString()), clock.instant());
  }

  @Operation(summary = "Cancel (scancel), or with signal=SIG only signal (scancel -s)")
  @Delete("/{id}")
  public CompletableFuture<Map<String, Object>> cancel(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String id, @Nullable @QueryValue String signal) {
    if (signal == null || signal.isEmpty()) {
      return commands.cancel(caller, id).thenApply(this::jobs);
    }
    String name = signalName(signal);
    if (name.equals("KILL")) {
      return commands.cancel(caller, id).thenApply(this::jobs);
    }
    return commands.signal(caller, id, name).thenApply(this::jobs);
  }

  @Operation(summary = "Hold a pending job (scontrol hold)")
  @Post("/{id}/hold")
  public CompletableFuture<Map<String, Object>> hold(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String id) {
    return commands.hold(caller, id).thenApply(this::jobs);
  }

  @Operation(summary = "Release a held job (scontrol release)")
  @Post("/{id}/release")
  public CompletableFuture<Map<String, Object>> release(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String id) {
    return commands.release(caller, id).thenApply(this::jobs);
  }

  @Operation(summary = "Requeue a running (after its checkpoint) or finished job (scontrol requeue)")
  @Post("/{id}/requeue")
  public CompletableFuture<Map<String, Object>> requeue(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String id) {
    return commands.requeue(caller, id).thenApply(this::jobs);
  }

  @Operation(summary = "Change a pending job (scontrol update job): time_limit, time_limit_delta, partition, qos,"
      + " num_nodes, dependency, nice; operators also priority")
  @Post(value = "/{id}/update", consumes = MediaType.APPLICATION_JSON)
  public CompletableFuture<Map<String, Object>> update(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String id, @Body String text) {
    JobUpdate update = JobUpdate.of(JsonBody.parse(text, JobUpdate.FIELDS));
    return commands.update(caller, id, update).thenApply(this::jobs);
  }

  @Operation(summary = "Checkpoint and release a running job's gang, keeping it held (squall pause); release resumes it")
  @Post("/{id}/pause")
  public CompletableFuture<Map<String, Object>> pause(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String id) {
    return commands.pause(caller, id).thenApply(this::jobs);
  }

  @Operation(summary = "Start a step in a running interactive allocation (srun on a login node): the step number,"
      + " the job's credential, its nodes' agents and its environment")
  @Post("/{id}/steps")
  @ExecuteOn(TaskExecutors.BLOCKING)
  public Map<String, Object> step(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @PathVariable String id) {
    return steps.grant(caller, id);
  }

  @Operation(summary = "The SLURM_* environment of a job's allocation (what salloc gives its command)")
  @Get("/{id}/environment")
  @ExecuteOn(TaskExecutors.BLOCKING)
  public Map<String, Object> environment(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String id) {
    return steps.environment(caller, id);
  }

  /** The fields of a relinquish. */
  private static final Set<String> COMPLETE_FIELDS = Set.of("exit_code", "signal");

  @Operation(summary = "Relinquish an interactive allocation (salloc and srun do when their command ends):"
      + " {exit_code, signal}")
  @Post(value = "/{id}/complete", consumes = MediaType.APPLICATION_JSON)
  public CompletableFuture<Map<String, Object>> complete(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @PathVariable String id, @Nullable @Body String text) {
    JsonBody body = JsonBody.parse(text == null || text.isBlank() ? "{}" : text, COMPLETE_FIELDS);
    int exitCode = body.optLong("exit_code") == null ? 0 : (int) body.wholeNumber("exit_code", 0, 255);
    Integer signal = body.optLong("signal") == null ? null : (int) body.wholeNumber("signal", 1, 64);
    return commands.complete(caller, id, exitCode, signal).thenApply(this::jobs);
  }

  private Map<String, Object> jobs(List<StoredJob> changed) {
    var now = clock.instant();
    List<Map<String, Object>> out = new ArrayList<>();
    changed.forEach(s -> out.add(views.summary(s, now)));
    return Map.of("jobs", out);
  }

  private static String signalName(String signal) {
    try {
      return SignalSpec.signalName(SignalSpec.signalNumber(signal));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("signal=" + signal + ": " + e.getMessage());
    }
  }

  private static Set<String> upper(String csv) {
    Set<String> out = new TreeSet<>();
    Arrays.stream(csv.split(",")).forEach(s -> out.add(s.trim().toUpperCase(Locale.ROOT)));
    return out;
  }
}
