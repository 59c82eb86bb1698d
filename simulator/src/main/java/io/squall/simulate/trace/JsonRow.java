package io.squall.simulate.trace;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** One job's JSON object: its fields as values, naming the line and field when one is wrong. */
final class JsonRow {
  /** Strict: a field given twice, or text after the value, is an error rather than a guess. */
  static final ObjectMapper JSON = new ObjectMapper()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final RowFields row;
  private final JsonNode node;

  JsonRow(RowFields row, JsonNode node) {
    if (node == null || !node.isObject()) {
      throw row.bad("is not a JSON object");
    }
    this.row = row;
    this.node = node;
  }

  /** The line the object starts on. */
  int line() {
    return row.line();
  }

  /** Fails on the first field not in {@code known}, listing those. */
  void onlyFields(List<String> known) {
    Set<String> allowed = Set.copyOf(known);
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw row.bad(name, "unknown field (fields: " + String.join(", ", known) + ")");
      }
    }
  }

  /** The text of a string field; null when it is missing or null. */
  String text(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (!value.isTextual()) {
      throw row.bad(field, value + " is not a string");
    }
    return value.asText();
  }

  String requiredText(String field) {
    return required(field, text(field));
  }

  /** A string or a whole number, as text (job ids are either); null when missing or null. */
  String id(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (value.isIntegralNumber() || (value.isTextual() && !value.asText().isBlank())) {
      return value.asText();
    }
    throw row.bad(field, value + " is not a job id (a string or a whole number)");
  }

  /** A whole-number field; null when it is missing or null. */
  Integer wholeNumber(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt()) {
      throw row.bad(field, value + " is not a whole number");
    }
    return value.intValue();
  }

  int requiredWholeNumber(String field) {
    return required(field, wholeNumber(field));
  }

  /** A number field; null when it is missing or null. */
  Double number(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (!value.isNumber() || !Double.isFinite(value.doubleValue())) {
      throw row.bad(field, value + " is not a number");
    }
    return value.doubleValue();
  }

  double requiredNumber(String field) {
    return required(field, number(field));
  }

  /** {@code seconds} of {@code field} as a duration, to the millisecond. */
  Duration seconds(String field, double seconds) {
    return row.seconds(field, seconds);
  }

  TraceException bad(String field, String problem) {
    return row.bad(field, problem);
  }

  private JsonNode value(String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value;
  }

  private <T> T required(String field, T value) {
    if (value == null) {
      throw row.bad(field, "is missing");
    }
    return value;
  }
}
