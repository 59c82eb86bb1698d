package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code squall.max-array-size} is the cluster's MaxArraySize: set lower, the server holds arrays to it. */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MaxArraySizeTest implements TestPropertyProvider {
  private static final String SCRIPT = "#!/bin/bash\nhostname\n";

  @Inject
  EmbeddedServer server;

  @Override
  public Map<String, String> getProperties() {
    try {
      return Map.of("squall.data-dir", Files.createTempDirectory("squall-array-test").toString(),
          "squall.provider", "none", "micronaut.server.port", "-1", "squall.max-array-size", "11");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void theConfiguredMaxArraySizeBoundsTaskIds() {
    Http h = new Http(server.getURL().toString());
    Http.Answer over = h.post("alice-token", "/v1/jobs", Map.of("script", SCRIPT, "argv", List.of("--array=5,11")));
    assertThat(over.status()).isEqualTo(400);
    assertThat(over.error()).isEqualTo("--array=5,11: Invalid job array specification (task id 11 is above 10:"
        + " this cluster's MaxArraySize is 11, squall.max-array-size)");
    Http.Answer within = h.post("alice-token", "/v1/jobs", Map.of("script", SCRIPT, "argv", List.of("--array=0-10")));
    assertThat(within.status()).as(within.body()).isEqualTo(201);
  }
}
