package io.squall.cli.service;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;

/** Reads the service's timestamps: ISO instants ({@code 2026-11-21T10:00:00Z}), as the API documents them. */
final class ApiInstantDeserializer extends StdDeserializer<Instant> {
  private static final long serialVersionUID = 1L;

  ApiInstantDeserializer() {
    super(Instant.class);
  }

  @Override
  public Instant deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      return (Instant) ctx.handleUnexpectedToken(Instant.class, p);
    }
    String text = p.getText();
    try {
      return Instant.parse(text);
    } catch (DateTimeException e) {
      return (Instant) ctx.handleWeirdStringValue(Instant.class, text, "not an ISO-8601 instant: " + e.getMessage());
    }
  }
}
