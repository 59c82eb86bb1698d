package io.squall.cli;

import io.squall.agent.CaFile;
import io.squall.agent.TlsFileException;
import io.squall.cli.service.ServiceAddress;
import io.squall.cli.service.ServiceConfigException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code squall bench api}: submits batch scripts through the HTTP API of a running service
 * from several client threads and prints throughput and latency. Each answer arrives only once
 * the job is durable (the service's group commit), so this measures acknowledged submissions.
 * Jobs are submitted held (--hold) so that the benchmark measures submission, not running.
 */
final class ApiBench {
  private static final String SCRIPT = "#!/bin/bash\n#SBATCH --job-name=bench\n#SBATCH --gpus-per-node=1\n"
      + "#SBATCH --time=5\n#SBATCH --hold\nsleep 1\n";

  private ApiBench() {}

  /** @param env where the service is and the token, as for the Slurm verbs ({@link ServiceAddress}) */
  static int run(Map<String, String> opts, Map<String, String> env, PrintStream out, PrintStream err)
      throws InterruptedException {
    int jobs = Integer.parseInt(opts.getOrDefault("jobs", "20000"));
    int clients = Integer.parseInt(opts.getOrDefault("clients", "8"));
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
    HttpClient http;
    try {
      http = CaFile.trusting(HttpClient.newBuilder(), address.caFile()).connectTimeout(Duration.ofSeconds(5)).build();
    } catch (TlsFileException e) {
      err.println("squall bench api: " + e.getMessage());
      return 1;
    }
    URI submit = URI.create(io.squall.agent.ControllerAddresses.parse(address.url()).current()
        + "/v1/jobs?submit_dir=/tmp&script_name=bench.sh");
    HttpRequest request = HttpRequest.newBuilder(submit)
        .header("Authorization", "Bearer " + address.token()).header("Content-Type", "text/x-shellscript")
        .POST(HttpRequest.BodyPublishers.ofString(SCRIPT)).build();
    // Warm the connection pool and the service's code paths before timing.
    int warm = Math.min(200, jobs);
    if (submitAll(http, request, warm, clients, new long[warm], err) < 0) {
      return 1;
    }
    long[] latencies = new long[jobs];
    long began = System.nanoTime();
    int failed = submitAll(http, request, jobs, clients, latencies, err);
    long elapsed = System.nanoTime() - began;
    if (failed < 0) {
      return 1;
    }
    Arrays.sort(latencies);
    double perSecond = (jobs - failed) / (elapsed / 1e9);
    out.printf("{\"jobs\":%d,\"clients\":%d,\"failed\":%d,\"submit_per_s\":%.0f,\"p50_ms\":%.1f,\"p99_ms\":%.1f}%n",
        jobs, clients, failed, perSecond, latencies[jobs / 2] / 1e6, latencies[(int) Math.min(jobs - 1, jobs * 0.99)] / 1e6);
    return failed == 0 ? 0 : 1;
  }

  /** @return how many submissions failed, or -1 when the service cannot be reached at all */
  private static int submitAll(HttpClient http, HttpRequest request, int jobs, int clients, long[] latencies,
      PrintStream err) throws InterruptedException {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<?>> workers = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      workers.add(pool.submit(() -> {
        int i;
        while ((i = next.getAndIncrement()) < jobs) {
          long t0 = System.nanoTime();
          try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 201) {
              if (failed.incrementAndGet() == 1) {
                err.println("squall bench api: " + r.statusCode() + " " + r.body());
              }
            }
          } catch (IOException e) {
            throw new IllegalStateException("cannot reach the Squall service at " + request.uri() + ": " + e, e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          latencies[i] = System.nanoTime() - t0;
        }
      }));
    }
    pool.shutdown();
    for (Future<?> w : workers) {
      try {
        w.get();
      } catch (java.util.concurrent.ExecutionException e) {
        err.println("squall bench api: " + e.getCause().getMessage() + " (start it with bin/squall server)");
        pool.shutdownNow();
        return -1;
      }
    }
    return failed.get();
  }
}
