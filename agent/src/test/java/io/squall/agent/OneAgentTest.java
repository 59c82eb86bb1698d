package io.squall.agent;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Each test gets a fresh fake controller, one agent ({@code node-1}) talking to it, and a job directory. */
abstract class OneAgentTest {
  @TempDir Path agentDir;
  @TempDir Path jobDir;
  FakeController controller;
  Agent agent;

  @BeforeEach
  void startAgent() throws Exception {
    controller = FakeController.start();
    agent = TestAgents.start("node-1", controller.url(), agentDir);
  }

  @AfterEach
  void stopAgent() {
    agent.close();
    controller.close();
  }
}
