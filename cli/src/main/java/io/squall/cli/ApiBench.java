package io.squall.cli;

import io.squall.agent.CaFile;
import io.squall.agent.ControllerAddresses;
import io.squall.agent.ProcessCpu;
import io.squall.agent.TlsFileException;
import io.squall.cli.service.ServiceAddress;
import io.squall.cli.service.ServiceConfigException;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code squall bench api}: held-job submissions through the HTTP API of a running service, measured
 * as {@code ../shared/bench/rest-bench.py} measures them (the client that measured slurmrestd on
 * this machine's kind), so that there is one way to measure: the same JSON job, one keep-alive
 * connection per client thread, the jobs split evenly over the clients, only answered submissions
 * timed, and with {@code --server-pid} the server's CPU per job from {@code /proc/PID/stat}. Each
 * answer arrives only once the job is durable (the service's group commit), so this measures
 * acknowledged submissions. Jobs are held so that it measures submission, not running.
 */
final class ApiBench {
  /** rest-bench.py's job, byte for byte in meaning. */
  static final String BODY = "{\"script\": \"#!/bin/sh\\ntrue\\n\", \"options\": {\"job-name\": \"rest-bench\","
      + " \"partition\": \"gpu\", \"hold\": true, \"time\": \"5\", \"nodes\": \"1\", \"ntasks\": \"1\","
      + " \"output\": \"/dev/null\", \"error\": \"/dev/null\"}, \"submit_dir\": \"/tmp\","
      + " \"environment\": {\"PATH\": \"/usr/bin:/bin\"}}";
  private static final Pattern JOB_ID = Pattern.compile("\"job_id\"\\s*:\\s*(\\d+)");

  private ApiBench() {}

  /** What one client thread saw. */
  private record ClientResult(List<Long> latencies, List<Long> ids, List<String> errors) {}

  /** @param env where the service is and the token, as for the Slurm verbs ({@link ServiceAddress}) */
  static int run(Map<String, String> opts, Map<String, String> env, PrintStream out, PrintStream err)
      throws InterruptedException {
    int jobs = Integer.parseInt(opts.getOrDefault("jobs", "2000"));
    int clients = Integer.parseInt(opts.getOrDefault("clients", "8"));
    Long serverPid = opts.containsKey("server-pid") ? Long.parseLong(opts.get("server-pid")) : null;
    ServiceAddress address;
    try {
      address = ServiceAddress.resolve(env);
    } catch (ServiceConfigException e) {
      err.println("squall bench api: " + e.getMessage());
      return 1;
    }
    if (address.token() == null) {
      err.println("squall bench api: no token configured: set SQUALL_TOKEN, or put 'token = ...' in "
          + address.configFile());
      return 1;
    }
    if (serverPid != null && serverCpuSeconds(serverPid) == null) {
      err.println("squall bench api: --server-pid " + serverPid + ": no such process on this machine (/proc/"
          + serverPid + "/stat)");
      return 1;
    }
    List<HttpClient> connections = new ArrayList<>();
    try {
      // One client per thread, HTTP/1.1: each keeps its one connection alive, as http.client does.
      for (int c = 0; c < clients; c++) {
        connections.add(CaFile.trusting(HttpClient.newBuilder(), address.caFile()).version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build());
      }
    } catch (TlsFileException e) {
      err.println("squall bench api: " + e.getMessage());
      return 1;
    }
    String token = "Bearer " + address.token();
    // The first controller of a list: a bench measures one server, so it follows no leader.
    String url = ControllerAddresses.parse(address.url()).current().toString();
    try {
      HttpResponse<String> probe = connections.get(0).send(HttpRequest.newBuilder(URI.create(url
          + "/v1/partitions")).header("Authorization", token).build(), HttpResponse.BodyHandlers.ofString());
      if (probe.statusCode() != 200) {
        err.println("squall bench api: GET /v1/partitions answered " + probe.statusCode() + ": " + probe.body());
        return 1;
      }
    } catch (IOException e) {
      err.println("squall bench api: cannot reach the Squall service at " + url + ": " + e
          + " (start it with bin/squall server)");
      return 1;
    }
    HttpRequest submit = HttpRequest.newBuilder(URI.create(url + "/v1/jobs")).timeout(Duration.ofSeconds(60))
        .header("Authorization", token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
    CountDownLatch go = new CountDownLatch(1);
    List<ClientResult> results = Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      HttpClient http = connections.get(c);
      int count = jobs / clients + (c < jobs % clients ? 1 : 0);
      Thread t = new Thread(() -> results.add(client(http, submit, count, go)), "bench-client-" + c);
      t.start();
      threads.add(t);
    }
    Double server0 = serverPid == null ? null : serverCpuSeconds(serverPid);
    long client0 = ownCpuNanos();
    long began = System.nanoTime();
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    double wall = (System.nanoTime() - began) / 1e9;
    Double server1 = serverPid == null ? null : serverCpuSeconds(serverPid);
    long clientCpu = ownCpuNanos() - client0;
    List<Long> latencies = new ArrayList<>();
    List<Long> ids = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (ClientResult r : results) {
      latencies.addAll(r.latencies());
      ids.addAll(r.ids());
      errors.addAll(r.errors());
    }
    Collections.sort(latencies);
    int ok = ids.size();
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("jobs", jobs);
    line.put("clients", clients);
    line.put("ok", ok);
    line.put("errors", errors.size());
    line.put("error_samples", errors.subList(0, Math.min(3, errors.size())));
    line.put("unique_ids", new HashSet<>(ids).size());
    line.put("submit_per_s", round(ok / wall, 1));
    line.put("p50_ms", percentileMs(latencies, 0.5));
    line.put("p99_ms", percentileMs(latencies, 0.99));
    line.put("server_cpu_ms_per_job", server0 == null || server1 == null ? null
        : round(1000 * (server1 - server0) / Math.max(1, ok), 3));
    line.put("client_cpu_ms_per_job", round(clientCpu / 1e6 / Math.max(1, ok), 3));
    out.println(Json.write(line));
    return errors.isEmpty() ? 0 : 1;
  }

  /** Submits {@code count} jobs one after the other on the client's connection, once {@code go} opens. */
  private static ClientResult client(HttpClient http, HttpRequest submit, int count, CountDownLatch go) {
    List<Long> latencies = new ArrayList<>(count);
    List<Long> ids = new ArrayList<>(count);
    List<String> errors = new ArrayList<>();
    try {
      go.await();
      for (int i = 0; i < count; i++) {
        long t0 = System.nanoTime();
        HttpResponse<String> r;
        try {
          r = http.send(submit, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
          errors.add(e.getClass().getSimpleName() + ": " + e.getMessage());
          continue;
        }
        long took = System.nanoTime() - t0;
        Matcher id = JOB_ID.matcher(r.body());
        if ((r.statusCode() == 200 || r.statusCode() == 201) && id.find()) {
          latencies.add(took);
          ids.add(Long.parseLong(id.group(1)));
        } else {
          String body = r.body();
          errors.add("HTTP " + r.statusCode() + ": " + body.substring(0, Math.min(200, body.length())));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new ClientResult(latencies, ids, errors);
  }

  private static Double percentileMs(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return null;
    }
    return round(sorted.get(Math.min(sorted.size() - 1, (int) (p * sorted.size()))) / 1e6, 2);
  }

  private static double round(double value, int places) {
    return new java.math.BigDecimal(value).setScale(places, java.math.RoundingMode.HALF_EVEN).doubleValue();
  }

  /** This JVM's CPU time, as rest-bench.py's os.times(): what the client costs. */
  private static long ownCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** The process's CPU seconds ({@link ProcessCpu}), or null when there is no such process. */
  private static Double serverCpuSeconds(long pid) {
    try {
      return ProcessCpu.seconds(pid);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
