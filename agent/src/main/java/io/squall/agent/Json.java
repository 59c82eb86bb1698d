package io.squall.agent;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;

/** The JSON mapper of the agent and its tools, configured for the protocol's conventions. */
final class Json {
  /**
   * snake_case keys as the protocol writes them; unknown keys are ignored so that a controller
   * which adds a field does not break agents already deployed.
   */
  static final ObjectMapper MAPPER = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private Json() {}

  /** An HTTP answer's body as JSON; a missing node when it is empty or not JSON. */
  static JsonNode readOrMissing(byte[] body) {
    try {
      JsonNode node = body.length == 0 ? null : MAPPER.readTree(body);
      return node == null ? MissingNode.getInstance() : node;
    } catch (IOException e) {
      return MissingNode.getInstance();
    }
  }
}
