package io.squall.cli.service;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes a request body with jackson-core's streaming generator: maps (in their order, null values
 * left out, as the API reads an absent field and a null alike), lists, strings, numbers, booleans;
 * anything else as its text.
 */
final class JsonBody {
  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonBody() {}

  static String write(Object value) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(text)) {
      write(g, value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the request as JSON", e);
    }
    return text.toString();
  }

  private static void write(JsonGenerator g, Object value) throws IOException {
    if (value == null) {
      g.writeNull();
    } else if (value instanceof Map<?, ?> map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (e.getValue() != null) {
          g.writeFieldName(String.valueOf(e.getKey()));
          write(g, e.getValue());
        }
      }
      g.writeEndObject();
    } else if (value instanceof Iterable<?> list) {
      g.writeStartArray();
      for (Object item : list) {
        write(g, item);
      }
      g.writeEndArray();
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Number n) {
      g.writeNumber(n.toString());
    } else {
      g.writeString(value.toString());
    }
  }
}
