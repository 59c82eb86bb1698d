package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistrationTest {
  @TempDir Path dir;

  @Test
  void registersWithWhatItKnowsOfItsNodeThenHeartbeats() throws Exception {
    try (FakeController controller = FakeController.start();
        Agent agent = TestAgents.start("node-1", controller.url(), dir)) {
      Eventually.until("two heartbeats", Eventually.LONG,
          () -> controller.calls("/v1/agent/heartbeat").size() >= 2);

      FakeController.Call register = controller.calls("/v1/agent/register").get(0);
      JsonNode body = register.body();
      assertThat(register.authorization()).isEqualTo("Bearer " + FakeController.TOKEN);
      assertThat(body.path("name").asText()).isEqualTo("node-1");
      assertThat(body.path("address").asText()).isEqualTo(agent.address().toString()).startsWith("http://127.0.0.1:");
      assertThat(body.path("gpus").asInt()).isEqualTo(2);
      assertThat(body.path("gpu_type").asText()).isEqualTo("h100");
      assertThat(body.path("cpus").asInt()).isEqualTo(8);
      assertThat(body.path("memory_mb").asLong()).isEqualTo(64_000);
      assertThat(body.path("features").toString()).isEqualTo("[\"a\",\"b\"]");
      assertThat(body.path("placement_group").asText()).isEqualTo("pg-1");
      assertThat(body.path("running").isArray()).isTrue();
      JsonNode heartbeat = controller.calls("/v1/agent/heartbeat").get(0).body();
      assertThat(heartbeat.path("name").asText()).isEqualTo("node-1");
      assertThat(heartbeat.path("running").isArray()).isTrue();
      assertThat(agent.registered()).isTrue();
    }
  }

  @Test
  void anAgentStartedBeforeTheControllerRegistersOnceItIsUp() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    try (Agent agent = TestAgents.start("node-1", URI.create("http://127.0.0.1:" + port), dir)) {
      assertThat(agent.registered()).isFalse();
      try (FakeController controller = FakeController.start(port)) {
        Eventually.until("registration", Eventually.LONG, () -> !controller.calls("/v1/agent/register").isEmpty());
        Eventually.until("the agent to see it is registered", Eventually.LONG, agent::registered);
      }
    }
  }

  @Test
  void registersAgainWhenAHeartbeatIsAnswered404() throws Exception {
    try (FakeController controller = FakeController.start();
        Agent agent = TestAgents.start("node-1", controller.url(), dir)) {
      Eventually.until("a heartbeat", Eventually.LONG, () -> !controller.calls("/v1/agent/heartbeat").isEmpty());

      controller.forget("node-1");

      Eventually.until("a second registration", Eventually.LONG,
          () -> controller.calls("/v1/agent/register").size() >= 2);
    }
  }

  /**
   * A second agent registers for the same node: the first one's next heartbeat is answered 409,
   * and it stands down for good: its job's processes are killed (no job runs on two agents), it
   * records why, and it never registers again (which would take the node back).
   */
  @Test
  void anAgentSupersededByAnotherOfItsNodeStopsKillsItsJobsAndDoesNotComeBack() throws Exception {
    Path jobDir = Files.createDirectories(dir.resolve("job"));
    try (FakeController controller = FakeController.start();
        Agent first = TestAgents.start("node-1", controller.url(), dir.resolve("first"))) {
      Eventually.until("the first agent registered", Eventually.LONG, first::registered);
      long pid = sleeper(first, "7", jobDir);
      assertThat(ProcessHandle.of(pid)).isPresent();

      try (Agent second = TestAgents.start("node-1", controller.url(), dir.resolve("second"))) {
        first.superseded().get(Eventually.LONG.toSeconds(), TimeUnit.SECONDS);
        Eventually.until("the job's process gone", Eventually.LONG,
            () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        assertThat(Files.readString(dir.resolve("first").resolve(AgentMain.SUPERSEDED_FILE)))
            .contains("served by the agent at " + second.address());
        int beats = controller.calls("/v1/agent/heartbeat").size();
        Eventually.until("the second agent heartbeating on", Eventually.LONG,
            () -> controller.calls("/v1/agent/heartbeat").size() > beats + 1);
        assertThat(controller.calls("/v1/agent/register")).extracting(c -> c.body().path("address").asText())
            .containsExactly(first.address().toString(), second.address().toString());
        assertThat(controller.calls("/v1/agent/heartbeat").get(controller.calls("/v1/agent/heartbeat").size() - 1)
            .body().path("address").asText()).isEqualTo(second.address().toString());
      }
    }
  }

  /**
   * A heartbeat answered with one of its jobs as a stray (the controller no longer runs it on this
   * node: its clean-up never came) has the agent kill it and forget it; its other jobs go on.
   */
  @Test
  void aJobTheControllerNamesAsAStrayIsKilledAndForgotten() throws Exception {
    Path strayDir = Files.createDirectories(dir.resolve("stray"));
    Path keptDir = Files.createDirectories(dir.resolve("kept"));
    try (FakeController controller = FakeController.start();
        Agent agent = TestAgents.start("node-1", controller.url(), dir.resolve("agent"))) {
      Eventually.until("registration", Eventually.LONG, agent::registered);
      long stray = sleeper(agent, "8", strayDir);
      long kept = sleeper(agent, "9", keptDir);

      controller.strays("8");

      Eventually.until("the stray's process gone", Eventually.LONG,
          () -> ProcessHandle.of(stray).map(p -> !p.isAlive()).orElse(true));
      controller.strays();
      Eventually.until("a heartbeat without the stray", Eventually.LONG, () -> {
        List<FakeController.Call> heartbeats = controller.calls("/v1/agent/heartbeat");
        return heartbeats.get(heartbeats.size() - 1).body().path("running").toString().equals("[\"9\"]");
      });
      assertThat(ProcessHandle.of(kept).map(ProcessHandle::isAlive)).contains(true);
    }
  }

  /** Launches {@code job} on the agent, a script that sleeps for ten minutes in {@code jobDir}; its pid. */
  private static long sleeper(Agent agent, String job, Path jobDir) {
    AgentCalls.launch(agent.address(), AgentCalls.batch(job, "echo $$ > pid\nexec sleep 600\n", jobDir,
        Map.of("PATH", "/usr/bin:/bin")));
    return pid(jobDir);
  }

  /** The pid the job's script wrote to {@code pid} in its directory, once it has. */
  private static long pid(Path jobDir) {
    return Eventually.value("the job's pid", Eventually.LONG, () -> {
      try {
        String text = Files.exists(jobDir.resolve("pid")) ? Files.readString(jobDir.resolve("pid")).trim() : "";
        return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
      } catch (java.io.IOException e) {
        return Optional.empty();
      }
    });
  }

  @Test
  void writesSrunAndScontrolWrappersThatRunThisJvm() throws Exception {
    try (FakeController controller = FakeController.start();
        Agent agent = TestAgents.start("node-1", controller.url(), dir)) {
      String srun = Files.readString(dir.resolve("bin/srun"));
      assertThat(srun).startsWith("#!/bin/sh\n")
          .contains("exec '" + JavaCommand.executable() + "'")
          .contains("io.squall.agent.Tools srun \"$@\"");
      assertThat(dir.resolve("bin/scontrol")).isExecutable();
    }
  }
}
