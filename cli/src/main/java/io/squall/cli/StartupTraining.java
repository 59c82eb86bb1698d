package io.squall.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The run the launchers record the class-data sharing archive from ({@code java
 * -XX:ArchiveClassesAtExit=... io.squall.cli.StartupTraining}): the common Slurm verbs in this
 * JVM against a stand-in service on a loopback port that answers with one job, so the classes a
 * real call loads (the verbs, the HTTP client, the JSON reader of each answer) are loaded
 * here and archived. It talks to no real service and prints nothing; a verb that fails here only
 * leaves its classes out of the archive, which costs speed, never correctness.
 */
public final class StartupTraining {
  private static final String JOB = """
      {"job_id":"7","job_id_raw":7,"array_job_id":null,"array_task_id":null,"array_pending":null,"name":"train",
      "user":"alice","account":"research","partition":"gpu","qos":"normal","reservation":null,"state":"PENDING",
      "reason":"JobHeldUser","nodes":null,"num_nodes":1,"num_gpus":1,"num_tasks":1,"time_limit_minutes":60,
      "submit_time":"2026-01-01T00:00:00.5Z","eligible_time":null,"start_time":null,"end_time":null,
      "elapsed_seconds":0,"expected_start":null,"restart_count":0,"not_before":null,"exit_code":null,
      "exit_signal":null,"work_dir":"/tmp","stdout":"/tmp/slurm-7.out","stderr":"/tmp/slurm-7.out","held":true}""";
  private static final String NODE = """
      {"name":"node-1","state":"IDLE","reason":null,"partitions":["gpu"],"gpus":8,"gpus_allocated":0,"gpu_type":"h100",
      "cpus":32,"memory_mb":262144,"features":[],"placement_group":"pg1","jobs":[],
      "last_heartbeat":"2026-01-01T00:00:00.5Z"}""";
  private static final String PARTITION = """
      {"name":"gpu","default":true,"nodes":"node-1","total_nodes":1,"nodes_by_state":{"IDLE":1},"total_gpus":8,
      "max_time_minutes":null,"default_time_minutes":null,"max_nodes":null,"priority_tier":1,
      "changeover_seconds":300,"state":"UP"}""";
  /** Answers by path; every other path gets an empty list of jobs. */
  private static final Map<String, String> ANSWERS = Map.of(
      "/v1/jobs", "{\"jobs\":[" + JOB + "]}",
      "/v1/jobs/7", JOB,
      "/v1/nodes", "{\"nodes\":[" + NODE + "]}",
      "/v1/partitions", "{\"partitions\":[" + PARTITION + "]}",
      "/v1/priorities", """
          {"weights":{"age":1000,"fair_share":10000,"job_size":1000,"partition":1000,"qos":2000,
          "max_age_seconds":604800},"jobs":[]}""");
  private static final List<List<String>> CALLS = List.of(
      List.of("sbatch", "--hold", "--parsable", "--wrap=true"),
      List.of("squeue"),
      List.of("squeue", "-u", "alice", "-o", "%i %j %T"),
      List.of("sinfo"),
      List.of("sacct"),
      List.of("scontrol", "show", "job", "7"),
      List.of("scancel", "7"),
      List.of("sprio"),
      List.of("sshare"));

  private StartupTraining() {}

  public static void main(String[] args) throws IOException {
    PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
    run(nowhere, nowhere);
  }

  /** Runs every call of the training, its output to {@code out} and {@code err}; returns their exit statuses. */
  static List<Integer> run(PrintStream out, PrintStream err) throws IOException {
    HttpServer service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    service.createContext("/", StartupTraining::answer);
    service.start();
    try {
      String url = "http://127.0.0.1:" + service.getAddress().getPort();
      // No HOME: the user's own config file (even a broken one) plays no part.
      Map<String, String> env = Map.of("SQUALL_URL", url, "SQUALL_TOKEN", "training",
          "HOME", "/nonexistent/squall-training-home", "USER", "alice");
      Invocation io = new Invocation(new ByteArrayInputStream(new byte[0]), out, err, env,
          Path.of(System.getProperty("java.io.tmpdir")), InstantSource.system(), ZoneId.systemDefault(),
          Sleeper.SYSTEM);
      List<Integer> statuses = new ArrayList<>();
      for (List<String> call : CALLS) {
        statuses.add(Main.run(call, io));
      }
      return statuses;
    } finally {
      service.stop(0);
    }
  }

  private static void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String body = ANSWERS.getOrDefault(path, "{\"jobs\":[" + JOB + "]}");
    if (exchange.getRequestMethod().equals("POST") && path.equals("/v1/jobs")) {
      body = "{\"job_id\":\"7\",\"warnings\":[]}";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(exchange.getRequestMethod().equals("POST") ? 201 : 200, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
