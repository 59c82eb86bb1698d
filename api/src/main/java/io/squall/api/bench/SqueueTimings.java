package io.squall.api.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How long squeue takes against the bench's controller: the request the CLI's default {@code squeue}
 * makes (its states, {@code fields=} and {@code rows=true}), then, when the launcher says where it
 * is, the real {@code bin/squall squeue} (a new JVM each time, as a user runs it), then the whole
 * list with every field. Each is the median of 3.
 */
public final class SqueueTimings {
  /**
   * What {@code bin/squall squeue} asks with its default format: the active states and the fields
   * {@code %.18i %.9P %.8j %.8u %.2t %.10M %.6D %R} reads (the CLI's SqueueColumns), as rows.
   * SqueueTimingsTest runs the real CLI and checks that it asks for exactly this.
   */
  static final String CLI_REQUEST = "/v1/jobs?state=PENDING,CONFIGURING,RUNNING,COMPLETING,REQUEUED"
      + "&fields=job_id,array_pending,array_job_id,partition,name,user,state,elapsed_seconds,num_nodes,reason,nodes"
      + "&rows=true";
  private static final ObjectMapper JSON = new ObjectMapper();
  /** What {@code -Xlog:class+load} says of the CLI's main class when it comes from the launcher's archive. */
  private static final String FROM_ARCHIVE = "io.squall.cli.Main source: shared objects file (top)";

  /** The timings in milliseconds; {@code cliMs} null when no launcher was given. */
  public record Figures(double squeueMs, int squeueJobs, double fullListMs, Double cliMs) {}

  private final String base;
  private final String token;
  private final HttpClient http;

  SqueueTimings(String base, String token, HttpClient http) {
    this.base = base;
    this.token = token;
    this.http = http;
  }

  /** bin/squall, when it launched the bench ({@code -Dsquall.launcher}), to time the real squeue; else null. */
  static Path launcher() {
    String launcher = System.getProperty("squall.launcher", "");
    return launcher.isEmpty() || !Files.isExecutable(Path.of(launcher)) ? null : Path.of(launcher);
  }

  /** @param launcher {@code bin/squall}, or null to leave the real CLI out */
  Figures measure(Path launcher, Path dir) throws IOException, InterruptedException {
    List<Double> squeue = new ArrayList<>();
    List<Double> full = new ArrayList<>();
    List<Double> cli = new ArrayList<>();
    int listed = 0;
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      byte[] answer = get(CLI_REQUEST);
      squeue.add(msSince(t0));
      listed = JSON.readTree(answer).path("rows").size();
    }
    if (launcher != null) {
      awaitArchive(launcher, dir);
      for (int i = 0; i < 3; i++) {
        cli.add(runCli(launcher, dir));
      }
    }
    // The whole list last: at 100,000 jobs it is 61 MB of views, whose garbage the controller is
    // still collecting for seconds after (squeue timed right after it took 1.4 s, and 0.2 to 0.4 s
    // a minute later).
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      get("/v1/jobs");
      full.add(msSince(t0));
    }
    return new Figures(median(squeue), listed, median(full), launcher == null ? null : median(cli));
  }

  /** Timed until the whole answer is in; reading its JSON is the client's work, not the controller's. */
  private byte[] get(String path) throws IOException, InterruptedException {
    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120))
        .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("GET " + path + " answered " + r.statusCode());
    }
    return r.body();
  }

  /**
   * Waits (at most a minute) until the launcher runs the CLI from its class-data sharing archive.
   * Building the controller for the bench rebuilds the CLI's jar too, and the first call after that
   * records a new archive in the background: timed then, squeue would run without the archive and
   * beside its recording. {@code squall bench cli} waits the same way (CliBench: the JVM logs where
   * it took Main from).
   */
  private static void awaitArchive(Path launcher, Path dir) throws IOException, InterruptedException {
    if ("none".equals(System.getenv("SQUALL_CDS_ARCHIVE"))) {
      return;
    }
    Path log = dir.resolve("archive.log");
    for (int waited = 0; waited < 60; waited++) {
      ProcessBuilder b = new ProcessBuilder(launcher.toString(), "--help").redirectOutput(log.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD);
      b.environment().put("SQUALL_JAVA_OPTS", "-Xlog:class+load=info");
      b.start().waitFor();
      if (Files.readString(log).contains(FROM_ARCHIVE)) {
        return;
      }
      Thread.sleep(1000);
    }
  }

  /** One {@code bin/squall squeue}, its output into a file: milliseconds from start to exit. */
  private double runCli(Path launcher, Path dir) throws IOException, InterruptedException {
    Path out = dir.resolve("squeue.out");
    ProcessBuilder b = new ProcessBuilder(launcher.toString(), "squeue").redirectOutput(out.toFile())
        .redirectError(dir.resolve("squeue.err").toFile());
    b.environment().put("SQUALL_URL", base);
    b.environment().put("SQUALL_TOKEN", token);
    b.environment().remove("SQUEUE_FORMAT");
    b.environment().remove("SQUEUE_FORMAT2");
    long t0 = System.nanoTime();
    Process p = b.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException(launcher + " squeue did not end within 5 minutes");
    }
    double ms = msSince(t0);
    if (p.exitValue() != 0) {
      throw new IllegalStateException(launcher + " squeue exited " + p.exitValue() + ": "
          + Files.readString(dir.resolve("squeue.err")));
    }
    return ms;
  }

  private static double msSince(long t0) {
    return (System.nanoTime() - t0) / 1e6;
  }

  private static double median(List<Double> three) {
    List<Double> sorted = new ArrayList<>(three);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
