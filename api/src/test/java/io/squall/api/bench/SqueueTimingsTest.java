package io.squall.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.squall.agent.JavaCommand;
import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the scale bench times as squeue: the request the real CLI's default {@code squeue} makes, and the CLI itself. */
class SqueueTimingsTest {
  @Test
  void theBenchTimesTheRequestTheDefaultSqueueMakes(@TempDir Path dir) throws Exception {
    AtomicReference<URI> asked = new AtomicReference<>();
    HttpServer fake = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    fake.createContext("/", exchange -> {
      asked.set(exchange.getRequestURI());
      byte[] body = "{\"jobs\":[]}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    fake.start();
    try {
      List<String> command = new ArrayList<>(List.of(JavaCommand.executable()));
      command.addAll(JavaCommand.QUICK_START);
      command.addAll(List.of("-cp", JavaCommand.classPath(), "io.squall.cli.Main", "squeue"));
      ProcessBuilder b = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
      b.environment().keySet().removeIf(k -> k.startsWith("SQUALL_") || k.startsWith("SQUEUE_") || k.startsWith("SLURM_"));
      b.environment().put("SQUALL_URL", "http://127.0.0.1:" + fake.getAddress().getPort());
      b.environment().put("SQUALL_TOKEN", "token");
      Process p = b.start();
      assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
      assertThat(p.exitValue()).isZero();
    } finally {
      fake.stop(0);
    }
    URI bench = URI.create(SqueueTimings.CLI_REQUEST);
    assertThat(asked.get().getPath()).isEqualTo(bench.getPath());
    assertThat(query(asked.get())).isEqualTo(query(bench)).containsKeys("state", "fields", "rows");
  }

  /**
   * The real CLI is timed once its launcher runs from the class-data sharing archive, and before
   * the whole list is asked for: that list's garbage slowed the controller's next answers.
   */
  @Test
  void theCliIsTimedFromItsArchiveBeforeTheWholeList(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("calls.log");
    Files.writeString(log, "");
    HttpServer fake = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    fake.createContext("/", exchange -> {
      String rawQuery = exchange.getRequestURI().getRawQuery();
      Files.writeString(log, (rawQuery != null && rawQuery.contains("rows=true") ? "GET squeue" : "GET whole list") + "\n",
          StandardOpenOption.APPEND);
      byte[] body = "{\"fields\":[\"job_id\"],\"rows\":[[\"1\"]]}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    // A launcher whose first --help finds no archive yet (a recording under way) and the second does.
    Path launcher = dir.resolve("squall");
    Files.writeString(launcher, """
        #!/bin/sh
        echo "launcher $1" >> '%1$s'
        if [ "$1" = --help ]; then
          if [ -f '%1$s.recorded' ]; then
            echo '[0.020s][info][class,load] io.squall.cli.Main source: shared objects file (top)'
          else
            echo '[0.020s][info][class,load] io.squall.cli.Main source: file:/squall.jar'
            touch '%1$s.recorded'
          fi
        fi
        """.formatted(log));
    launcher.toFile().setExecutable(true);
    fake.start();
    SqueueTimings.Figures figures;
    try {
      figures = new SqueueTimings("http://127.0.0.1:" + fake.getAddress().getPort(), "token", HttpClient.newHttpClient())
          .measure(launcher, dir);
    } finally {
      fake.stop(0);
    }
    assertThat(Files.readAllLines(log)).containsExactly("GET squeue", "GET squeue", "GET squeue",
        "launcher --help", "launcher --help", "launcher squeue", "launcher squeue", "launcher squeue",
        "GET whole list", "GET whole list", "GET whole list");
    assertThat(figures.squeueJobs()).isEqualTo(1);
    assertThat(figures.cliMs()).isNotNull();
  }

  private static Map<String, String> query(URI uri) {
    Map<String, String> q = new LinkedHashMap<>();
    for (String pair : uri.getRawQuery().split("&")) {
      int eq = pair.indexOf('=');
      q.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return q;
  }
}
