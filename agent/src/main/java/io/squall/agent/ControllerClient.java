package io.squall.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Posts the agent's messages to the controller with the agent token, to whichever of the given
 * controllers leads ({@link ControllerAddresses}). Thread-safe.
 */
final class ControllerClient {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private final ControllerAddresses controllers;
  private final String token;
  private final HttpClient http;

  /**
   * @param caFile the CA an https controller's certificate is checked against; null for the JDK's
   * @throws IOException when the CA file cannot be used
   */
  ControllerClient(ControllerAddresses controllers, String token, Path caFile) throws IOException {
    this.controllers = controllers;
    this.token = token;
    try {
      this.http = CaFile.trusting(HttpClient.newBuilder(), caFile)
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(CONNECT_TIMEOUT)
          .build();
    } catch (TlsFileException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** The controller's answer; {@code body} is a missing node when it was not JSON. */
  record Reply(int status, JsonNode body) {
    boolean ok() {
      return status == 200;
    }
  }

  /** @throws IOException when the controller cannot be reached or does not answer in time */
  Reply post(String path, Object message) throws IOException {
    byte[] body = Json.MAPPER.writeValueAsBytes(message);
    try {
      HttpResponse<byte[]> response = controllers.send(base -> http.send(HttpRequest.newBuilder(URI.create(base + path))
          .timeout(REQUEST_TIMEOUT)
          .header("Authorization", "Bearer " + token)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(body))
          .build(), HttpResponse.BodyHandlers.ofByteArray()));
      return new Reply(response.statusCode(), Json.readOrMissing(response.body()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while posting " + path);
    }
  }
}
