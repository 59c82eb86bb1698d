package io.squall.cli.service;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Reads the service's timestamps. The API documents ISO instants ({@code 2026-11-21T10:00:00Z});
 * JSON frameworks also write offsets, zone-less UTC times or epoch numbers, so all of those are
 * read rather than failing a whole listing over one field's style.
 */
final class ApiInstantDeserializer extends StdDeserializer<Instant> {
  private static final long serialVersionUID = 1L;
  /** Epoch values above this are milliseconds (seconds would be past the year 5000). */
  private static final long MILLIS_THRESHOLD = 100_000_000_000L;

  ApiInstantDeserializer() {
    super(Instant.class);
  }

  @Override
  public Instant deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT) {
      return epoch(p.getLongValue());
    }
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      return seconds(p.getDecimalValue());
    }
    if (t == JsonToken.VALUE_STRING) {
      String text = p.getText().strip();
      if (text.isEmpty()) {
        return null;
      }
      try {
        return parse(text);
      } catch (DateTimeException | NumberFormatException e) {
        return (Instant) ctx.handleWeirdStringValue(Instant.class, text, "not a timestamp: " + e.getMessage());
      }
    }
    return (Instant) ctx.handleUnexpectedToken(Instant.class, p);
  }

  static Instant parse(String text) {
    if (text.matches("\\d+")) {
      return epoch(Long.parseLong(text));
    }
    if (text.matches("\\d+\\.\\d+")) {
      return seconds(new BigDecimal(text));
    }
    if (text.endsWith("Z") || text.endsWith("z")) {
      return Instant.parse(text.toUpperCase(java.util.Locale.ROOT));
    }
    if (text.matches(".*[+-]\\d{2}:\\d{2}$")) {
      return OffsetDateTime.parse(text).toInstant();
    }
    return java.time.LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
  }

  private static Instant epoch(long value) {
    return value > MILLIS_THRESHOLD ? Instant.ofEpochMilli(value) : Instant.ofEpochSecond(value);
  }

  private static Instant seconds(BigDecimal value) {
    long secs = value.longValue();
    int nanos = value.subtract(BigDecimal.valueOf(secs)).movePointRight(9).intValue();
    return Instant.ofEpochSecond(secs, nanos);
  }
}
