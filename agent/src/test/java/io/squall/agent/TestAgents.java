package io.squall.agent;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Agents for tests: in this JVM, on 127.0.0.1, quick to retry. */
final class TestAgents {
  private TestAgents() {}

  static AgentConfig config(String name, URI controller, Path workDir) {
    return config(name, controller, workDir, Interruptions.NONE, null);
  }

  /** An agent that watches {@code watched}'s metadata service at {@code metadataUrl}. */
  static AgentConfig config(String name, URI controller, Path workDir, Interruptions watched, URI metadataUrl) {
    return new AgentConfig(ControllerAddresses.of(controller), FakeController.TOKEN, name, 2, "h100", 8, 64_000, List.of("a", "b"), "pg-1",
        workDir, 0, "127.0.0.1", Duration.ofMillis(200), watched, metadataUrl, null, null);
  }

  static Agent start(String name, URI controller, Path workDir) throws IOException {
    return Agent.start(config(name, controller, workDir), System.err);
  }
}
