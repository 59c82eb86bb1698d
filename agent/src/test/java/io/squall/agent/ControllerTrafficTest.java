package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Output and exit events on their way to the controller, including when it does not take them. */
class ControllerTrafficTest extends OneAgentTest {
  @Test
  void outputIsShippedWhileTheScriptRunsAndCompleteBeforeItsExitIsReported() throws Exception {
    String script = "echo one\nwhile [ ! -f go ]; do sleep 0.1; done\necho two\n";
    AgentCalls.launch(agent.address(), AgentCalls.batch("70", script, jobDir, Map.of("PATH", "/usr/bin:/bin")));

    Eventually.until("the first line at the controller", Eventually.LONG,
        () -> controller.output("70", "stdout").equals("one\n"));
    assertThat(controller.exitOf("70")).isEmpty();
    Files.writeString(jobDir.resolve("go"), "");
    controller.awaitExit("70", Eventually.LONG);

    assertThat(controller.output("70", "stdout")).isEqualTo("one\ntwo\n");
    List<Long> offsets = controller.calls("/v1/agent/output").stream()
        .map(c -> c.body().path("offset").asLong()).collect(Collectors.toList());
    assertThat(offsets).containsExactly(0L, 4L);
    assertThat(controller.calls("/v1/agent/output").get(0).body().path("job").asText()).isEqualTo("70");
  }

  @Test
  void exitEventsAreResentUntilTheControllerTakesThem() {
    controller.failNextEvents(2);

    AgentCalls.launch(agent.address(), AgentCalls.batch("71", "exit 4\n", jobDir, Map.of()));

    JsonNode exit = controller.awaitExit("71", Eventually.LONG);
    assertThat(exit.path("exit_code").asInt()).isEqualTo(4);
    List<FakeController.Call> posts = controller.calls("/v1/agent/events");
    assertThat(posts).hasSizeGreaterThanOrEqualTo(3);
    assertThat(posts.stream().map(p -> p.body().path("events").get(0).path("id").asText()).distinct())
        .containsExactly(exit.path("id").asText());
    assertThat(posts.get(0).body().path("name").asText()).isEqualTo("node-1");
  }
}
