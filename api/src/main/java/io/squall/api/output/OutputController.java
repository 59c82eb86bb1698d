package io.squall.api.output;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.squall.api.auth.Caller;
import io.squall.api.jobs.JobAccess;
import io.squall.api.state.ApiException;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;

/** {@code GET /v1/jobs/{id}/output}: what the job wrote, gathered from its nodes; {@code follow=true} streams. */
@Controller("/v1/jobs")
@Tag(name = "jobs")
public final class OutputController {
  private static final Duration POLL = Duration.ofMillis(250);
  private final OutputStore output;
  private final JobAccess jobs;
  private final StateWriter writer;

  public OutputController(OutputStore output, JobAccess jobs, StateWriter writer) {
    this.output = output;
    this.jobs = jobs;
    this.writer = writer;
  }

  @Operation(summary = "The job's stdout or stderr from byte offset (default 0); follow=true streams until the job ends")
  @Get(value = "/{id}/output", produces = MediaType.TEXT_PLAIN)
  @ExecuteOn(TaskExecutors.BLOCKING)
  public HttpResponse<?> output(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @PathVariable String id,
      @Nullable @QueryValue String stream, @Nullable @QueryValue Boolean follow, @Nullable @QueryValue String offset) {
    String which = stream == null ? "stdout" : stream;
    if (!OutputStore.isStream(which)) {
      throw ApiException.badRequest("stream=" + which + ": use stdout or stderr");
    }
    long from = offset(offset);
    StoredJob job = jobs.visible(caller, id);
    String key = job.key().toString();
    if (!Boolean.TRUE.equals(follow)) {
      return HttpResponse.ok(output.read(key, which, from)).contentType(MediaType.TEXT_PLAIN_TYPE);
    }
    AtomicLong sent = new AtomicLong(from);
    // Poll the gathered file; stop one poll after the job has ended so the last chunk gets out.
    Flux<byte[]> chunks = Flux.interval(Duration.ZERO, POLL)
        .map(tick -> {
          byte[] data = output.read(key, which, sent.get());
          sent.addAndGet(data.length);
          return data;
        })
        .takeUntil(data -> data.length == 0 && ended(job))
        .filter(data -> data.length > 0);
    return HttpResponse.ok(chunks).contentType(MediaType.TEXT_PLAIN_TYPE);
  }

  /** Where to read from: a tail that polls asks only for what it has not had (the dashboard's output view). */
  private static long offset(String text) {
    if (text == null) {
      return 0;
    }
    try {
      long n = Long.parseLong(text.strip());
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiException.badRequest("offset=" + text + ": expected a byte offset, a whole number from 0");
  }

  private boolean ended(StoredJob job) {
    StoredJob now = writer.state().job(job.key());
    return now == null || now.job().state().isFinished();
  }
}
