package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * squeue's lines rendered by the service (GET /v1/jobs?format=, what squeue asks for when the
 * service can apply every filter) are the lines the client renders from the jobs' fields (what it
 * does when a filter is its own: here an account named twice, which filters nothing): the real
 * CLI, as processes, against a real controller, for Slurm's formats and one of every letter, with
 * times in a strftime SLURM_TIME_FORMAT and a zone half an hour off UTC. Bad rendering parameters
 * are 400s that say which.
 */
class SqueueLinesTest {
  private static final String EVERY_LETTER = "%i|%P|%j|%u|%T|%t|%M|%l|%D|%R|%a|%b|%C|%S|%V|%e|%q|%v|%Q|%r|%N|%A|%F|%K|%Z";

  @TempDir
  Path dir;
  @AutoClose
  private final FakeAgent agent = new FakeAgent();

  @Test
  void theServiceRendersTheLinesTheClientWould() throws IOException {
    try (Controllers.Running c = Controllers.start(Controllers.manualSettings(dir.resolve("data"), null, "node-1",
        "60s"))) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      agent.register(h, "node-1");
      String whole = "#!/bin/bash\n#SBATCH --gres=gpu:8 --time=90 --output=/dev/null\nsleep 600\n";
      long running = h.submit(whole);
      h.submit(whole); // waits for the node
      h.submit(Map.of("script", "#!/bin/bash\n#SBATCH -J sweep --array=0-5%2 --gres=gpu:1 --output=/dev/null\ntrue\n",
          "argv", List.of("--hold")));
      time.tick();
      LoginNode login = new LoginNode(Files.createDirectories(dir.resolve("login")), c.url());
      Map<String, String> env = Map.of("SLURM_TIME_FORMAT", "%a %d %b %H:%M", "TZ", "Asia/Kolkata");

      JsonNode job = h.job(running);
      String account = job.get("account").asText();
      for (List<String> format : List.<List<String>>of(List.of(), List.of("-l"), List.of("-o", EVERY_LETTER))) {
        LoginNode.Run byService = login.run(env, "alice-token", args(format, List.of()));
        LoginNode.Run here = login.run(env, "alice-token", args(format, List.of("-A", account + "," + account)));
        assertThat(byService.status()).as(byService.toString()).isZero();
        assertThat(byService.out()).as(String.join(" ", format)).isEqualTo(here.out()).hasLineCount(4);
      }
      String started = DateTimeFormatter.ofPattern("EEE dd MMM HH:mm", Locale.ROOT)
          .format(Instant.parse(job.get("start_time").asText()).atZone(ZoneId.of("Asia/Kolkata")));
      assertThat(login.run(env, "alice-token", args(List.of("-h", "-o", "%i %S"), List.of())).out())
          .startsWith(running + " " + started + "\n");
      // Rendered there, not here: the service answers the lines themselves.
      Http.Answer lines = h.get("alice-token", "/v1/jobs?state=RUNNING&format=" + encode("%i %S") + "&time_format="
          + encode(env.get("SLURM_TIME_FORMAT")) + "&zone=Asia/Kolkata");
      assertThat(lines.body()).isEqualTo("{\"lines\":[\"" + running + " " + started + "\"]}");
    }
  }

  @Test
  void badRenderingParametersAreRefusedWithWhatWasWrong() {
    try (Controllers.Running c = Controllers.start(Controllers.manualSettings(dir.resolve("data"), null, "node-1",
        "60s"))) {
      Http h = new Http(c.url());
      Http.Answer format = h.get("alice-token", "/v1/jobs?format=%25i%20%25y");
      assertThat(format.status()).isEqualTo(400);
      assertThat(format.body()).contains("format: Invalid format specification: %y");
      Http.Answer zone = h.get("alice-token", "/v1/jobs?format=%25i&zone=Mars/Olympus");
      assertThat(zone.status()).isEqualTo(400);
      assertThat(zone.body()).contains("zone: not a time zone: 'Mars/Olympus'");
      Http.Answer times = h.get("alice-token", "/v1/jobs?format=%25i&time_format=soon");
      assertThat(times.status()).isEqualTo(400);
      assertThat(times.body()).contains("time_format: invalid SLURM_TIME_FORMAT = 'soon'");
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String[] args(List<String> format, List<String> filters) {
    List<String> all = new ArrayList<>(List.of("squeue"));
    all.addAll(format);
    all.addAll(filters);
    return all.toArray(String[]::new);
  }
}
