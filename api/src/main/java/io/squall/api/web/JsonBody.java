package io.squall.api.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.squall.api.state.ApiException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A request's JSON object, read strictly: one object and nothing after it, no duplicate or unknown
 * fields, and each field of the type the API documents (a string is a string, not a list or a
 * number; a boolean is {@code true} or {@code false}; a list or map holds no nulls). Every refusal
 * is a 400 that names the field, so a client learns what to fix and nothing half-read is acted on.
 *
 * <p>Text is also checked with {@link TextRules}: NUL is refused everywhere, since no path, name or
 * script can carry it and PostgreSQL cannot store it.
 */
public final class JsonBody {
  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private final JsonNode node;
  private final String prefix;

  private JsonBody(JsonNode node, String prefix) {
    this.node = node;
    this.prefix = prefix;
  }

  /**
   * Reads {@code text} as one JSON object whose fields are among {@code fields}.
   *
   * @throws ApiException 400 for anything else
   */
  public static JsonBody parse(String text, Set<String> fields) {
    if (text == null || text.isBlank()) {
      throw ApiException.badRequest("the body must be a JSON object; it is empty");
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest("the body is not valid JSON: " + e.getOriginalMessage()
          + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column "
              + e.getLocation().getColumnNr() + ")"));
    }
    return object(node, "", fields);
  }

  private static JsonBody object(JsonNode node, String prefix, Set<String> fields) {
    if (node == null || !node.isObject()) {
      throw ApiException.badRequest((prefix.isEmpty() ? "the body" : prefix.substring(0, prefix.length() - 1))
          + " must be a JSON object, not " + kind(node));
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!fields.contains(name)) {
        throw ApiException.badRequest(prefix + TextRules.quoted(name) + ": unknown field; the fields are "
            + String.join(", ", fields.stream().sorted().toList()));
      }
    }
    return new JsonBody(node, prefix);
  }

  private JsonNode present(String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v;
  }

  private ApiException wrong(String field, String expected) {
    return ApiException.badRequest(prefix + field + ": expected " + expected + ", not " + kind(node.get(field)));
  }

  /** A required string field (empty allowed). */
  public String text(String field) {
    String v = optText(field);
    if (v == null) {
      throw ApiException.badRequest(prefix + field + ": required");
    }
    return v;
  }

  /** A string field, or null when it is absent or null. */
  public String optText(String field) {
    JsonNode v = present(field);
    if (v == null) {
      return null;
    }
    if (!v.isTextual()) {
      throw wrong(field, "a string");
    }
    return TextRules.noNul(prefix + field, v.textValue());
  }

  /** A boolean field, or {@code otherwise} when it is absent or null. */
  public boolean bool(String field, boolean otherwise) {
    JsonNode v = present(field);
    if (v == null) {
      return otherwise;
    }
    if (!v.isBoolean()) {
      throw wrong(field, "true or false");
    }
    return v.booleanValue();
  }

  /** A whole-number field, or null when it is absent or null. */
  public Long optLong(String field) {
    JsonNode v = present(field);
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw wrong(field, "a whole number");
    }
    return v.longValue();
  }

  /** A required whole-number field within {@code [min, max]}. */
  public long wholeNumber(String field, long min, long max) {
    Long v = optLong(field);
    if (v == null) {
      throw ApiException.badRequest(prefix + field + ": required");
    }
    if (v < min || v > max) {
      throw ApiException.badRequest(prefix + field + ": from " + min + " to " + max + ", not " + v);
    }
    return v;
  }

  /** A list of strings; empty when absent or null. */
  public List<String> textList(String field) {
    JsonNode v = present(field);
    if (v == null) {
      return List.of();
    }
    if (!v.isArray()) {
      throw wrong(field, "a list of strings");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      JsonNode e = v.get(i);
      if (!e.isTextual()) {
        throw ApiException.badRequest(prefix + field + "[" + i + "]: expected a string, not " + kind(e));
      }
      out.add(TextRules.noNul(prefix + field + "[" + i + "]", e.textValue()));
    }
    return out;
  }

  /** A map of strings to strings; empty when absent or null. */
  public Map<String, String> textMap(String field) {
    Map<String, String> out = new LinkedHashMap<>();
    scalars(field, "strings").forEach((k, v) -> {
      if (!v.isTextual()) {
        throw ApiException.badRequest(prefix + field + "." + k + ": expected a string, not " + kind(v));
      }
      out.put(k, TextRules.noNul(prefix + field + "." + k, v.textValue()));
    });
    return out;
  }

  /**
   * A map whose values are strings, numbers or booleans, as text ({@code true}/{@code false} for
   * booleans); empty when absent or null.
   */
  public Map<String, Object> scalarMap(String field) {
    Map<String, Object> out = new LinkedHashMap<>();
    scalars(field, "strings, numbers or booleans").forEach((k, v) -> {
      if (v.isBoolean()) {
        out.put(k, v.booleanValue());
      } else if (v.isTextual() || v.isNumber()) {
        out.put(k, TextRules.noNul(prefix + field + "." + k, v.asText()));
      } else {
        throw ApiException.badRequest(prefix + field + "." + k + ": expected a string, number or boolean, not "
            + kind(v));
      }
    });
    return out;
  }

  private Map<String, JsonNode> scalars(String field, String of) {
    JsonNode v = present(field);
    Map<String, JsonNode> out = new LinkedHashMap<>();
    if (v == null) {
      return out;
    }
    if (!v.isObject()) {
      throw wrong(field, "an object of " + of);
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      TextRules.noNul(prefix + field + " key", e.getKey());
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }

  /** A required list of objects with the given fields. */
  public List<JsonBody> objects(String field, Set<String> fields) {
    JsonNode v = present(field);
    if (v == null) {
      throw ApiException.badRequest(prefix + field + ": required");
    }
    if (!v.isArray()) {
      throw wrong(field, "a list of objects");
    }
    List<JsonBody> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      out.add(object(v.get(i), prefix + field + "[" + i + "].", fields));
    }
    return out;
  }

  private static String kind(JsonNode v) {
    if (v == null || v.isNull()) {
      return "null";
    }
    return switch (v.getNodeType()) {
      case ARRAY -> "a list";
      case OBJECT, POJO -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case BINARY, MISSING, NULL -> "null";
    };
  }
}
