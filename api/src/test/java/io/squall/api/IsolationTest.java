package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two users share a cluster: carol's jobs run as uid 40001, dave's as uid 40002, on real agents
 * running as root (as on cloud nodes). Neither may read, write or signal the other's files,
 * processes or output, nor read the controller's database, gathered output or the agent's
 * token. Needs root (CI runs as root): an agent that is not root runs every job as itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IsolationTest {
  private static final Duration LONG = Duration.ofSeconds(90);
  private static final int CAROL = 40001;
  private static final int DAVE = 40002;
  private Path dir;
  private Path data;
  private Controllers.Running server;
  private Http http;

  @BeforeAll
  void start() throws IOException {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/setpriv")),
        "jobs run as their users only under an agent running as root, with setpriv");
    dir = Files.createTempDirectory("squall-isolation");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    data = dir.resolve("data");
    Map<String, Object> settings = Controllers.settings(data, null, "local");
    for (var u : Map.of("carol", CAROL, "dave", DAVE).entrySet()) {
      settings.put("squall.users." + u.getKey() + ".token", u.getKey() + "-token");
      settings.put("squall.users." + u.getKey() + ".account", "research");
      settings.put("squall.users." + u.getKey() + ".uid", u.getValue());
      settings.put("squall.users." + u.getKey() + ".gid", u.getValue());
      Path home = Files.createDirectories(dir.resolve(u.getKey()));
      Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
      Files.setAttribute(home, "unix:uid", u.getValue(), LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(home, "unix:gid", u.getValue(), LinkOption.NOFOLLOW_LINKS);
    }
    server = Controllers.start(settings);
    http = new Http(server.url());
    Poll.until("4 nodes to register", LONG, () -> http.get("admin-token", "/v1/nodes").json().get("nodes")
        .findValuesAsText("state").stream().filter("IDLE"::equals).count() == 4);
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void neitherUserCanReachTheOthersFilesProcessesOrOutputNorTheControllers() throws Exception {
    Path daveDir = dir.resolve("dave");
    Path davePid = daveDir.resolve("pid");
    long daves = submit("dave", daveDir, """
        #!/bin/bash
        echo "dave's secret"
        echo secret > $HOME_DIR/private.txt
        echo $$ > $HOME_DIR/pid
        sleep 30
        echo "dave done"
        """.replace("$HOME_DIR", daveDir.toString()), List.of("--nodelist=node-1"));
    Poll.until("dave's job to start", LONG, () -> davePid.toFile().length() > 0);
    Path daveOut = daveDir.resolve("slurm-" + daves + ".out");
    long agentPid = ProcessHandle.allProcesses().filter(p -> commandLine(p.pid()).contains("io.squall.agent.AgentMain")
        && commandLine(p.pid()).contains(data.resolve("nodes/node-1").toString())).findFirst().orElseThrow().pid();

    Path carolDir = dir.resolve("carol");
    String probes = String.join("\n",
        "#!/bin/bash",
        "echo \"uid=$(id -u) gid=$(id -g)\"",
        "try() { if eval \"$2\" >/dev/null 2>&1; then echo \"$1: ALLOWED\"; else echo \"$1: denied\"; fi; }",
        "try read-others-output 'cat " + daveOut + "'",
        "try read-others-file 'cat " + daveDir.resolve("private.txt") + "'",
        "try write-others-output 'echo forged >> " + daveOut + "'",
        "try signal-others-job 'kill -0 $(cat " + davePid + ")'",
        "try read-database 'cat " + data.resolve("db/squall.mv.db") + "'",
        "try list-gathered-output 'ls " + data.resolve("output") + "'",
        "try read-agent-token 'cat " + data.resolve("nodes/node-1/agent-token") + "'",
        "try read-agent-environment 'cat /proc/" + agentPid + "/environ'",
        "try list-other-jobs 'ls " + data.resolve("nodes/node-1/jobs") + "'",
        "try write-own-directory 'touch " + carolDir.resolve("mine") + "'",
        "");
    long carols = submit("carol", carolDir, probes, List.of("--nodelist=node-1"));
    JsonNode carolJob = awaitEnd(carols);
    assertThat(carolJob.get("state").asText()).isEqualTo("COMPLETED");
    String out = Files.readString(carolDir.resolve("slurm-" + carols + ".out"));
    assertThat(out).contains("uid=" + CAROL + " gid=" + CAROL)
        .contains("read-others-output: denied", "read-others-file: denied", "write-others-output: denied",
            "signal-others-job: denied", "read-database: denied", "list-gathered-output: denied",
            "read-agent-token: denied", "read-agent-environment: denied", "list-other-jobs: denied")
        .contains("write-own-directory: ALLOWED");
    assertThat(out.lines().filter(l -> l.endsWith("ALLOWED"))).containsExactly("write-own-directory: ALLOWED");
    assertThat(owner(carolDir.resolve("slurm-" + carols + ".out"))).isEqualTo(CAROL);

    // --output into someone else's directory: the kernel refuses carol's job, and dave's file is untouched.
    long truncate = submit("carol", carolDir, "#!/bin/bash\necho overwritten\n",
        List.of("--output=" + daveOut, "--nodelist=node-1"));
    assertThat(awaitEnd(truncate).get("state").asText()).isEqualTo("FAILED");
    // And the controller's data directory is no place to write either.
    long intoData = submit("carol", carolDir, "#!/bin/bash\necho planted\n",
        List.of("--output=" + data.resolve("db/planted"), "--nodelist=node-1"));
    assertThat(awaitEnd(intoData).get("state").asText()).isEqualTo("FAILED");
    assertThat(data.resolve("db/planted")).doesNotExist();

    JsonNode daveJob = awaitEnd(daves);
    assertThat(daveJob.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(Files.readString(daveOut)).isEqualTo("dave's secret\ndave done\n");
    assertThat(owner(daveOut)).isEqualTo(DAVE);
  }

  @Test
  void theAgentsCredentialsAreNotInAJobsEnvironment() throws Exception {
    Path carolDir = dir.resolve("carol");
    long id = submit("carol", carolDir, "#!/bin/bash\nenv | cut -d= -f1 | sort\n", List.of());
    assertThat(awaitEnd(id).get("state").asText()).isEqualTo("COMPLETED");
    String names = Files.readString(carolDir.resolve("slurm-" + id + ".out"));
    assertThat(names).doesNotContain("SQUALL_AGENT_TOKEN").contains("SQUALL_JOB_CREDENTIAL");
  }

  private long submit(String user, Path submitDir, String script, List<String> argv) {
    Http.Answer a = http.post(user + "-token", "/v1/jobs", Map.of("script", script, "argv", argv,
        "submit_dir", submitDir.toString()));
    assertThat(a.status()).as(a.body()).isEqualTo(201);
    return a.json().get("job_id").asLong();
  }

  private JsonNode awaitEnd(long id) {
    Poll.until("job " + id + " to end", LONG, () -> !List.of("PENDING", "CONFIGURING", "RUNNING", "COMPLETING")
        .contains(http.get("admin-token", "/v1/jobs/" + id).json().get("state").asText()));
    return http.get("admin-token", "/v1/jobs/" + id).json();
  }

  /** The whole command line (ProcessHandle's may be cut short with a long class path). */
  private static String commandLine(long pid) {
    try {
      return Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
    } catch (IOException | java.io.UncheckedIOException gone) {
      return "";
    }
  }

  private static int owner(Path p) throws IOException {
    return (int) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
  }
}
