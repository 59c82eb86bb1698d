package io.squall.cli.service;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One JSON object of the service's answer, with typed accessors that say which field was missing
 * or of the wrong type ({@code jobs[0].submit_time: not an ISO-8601 instant: ...}). The answer is
 * read with jackson-core's streaming parser into plain values (maps, lists, strings, numbers,
 * booleans): Jackson's data binding costs a verb more start-up time than the whole rest of its
 * run. Fields the client does not know are ignored, as the API's compatibility rules ask.
 */
final class JsonAnswer {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final Map<String, Object> fields;
  /** Where this object is in the answer ({@code jobs[0]}), empty for the answer itself. */
  private final String path;

  private JsonAnswer(Map<String, Object> fields, String path) {
    this.fields = fields;
    this.path = path;
  }

  /**
   * The answer as plain values: {@code Map} (insertion order), {@code List}, {@code String},
   * {@code Integer}/{@code Long}/{@code BigInteger}, {@code Double}, {@code Boolean} or null.
   *
   * @param json the answer's bytes (UTF-8), read to their end
   * @throws MalformedAnswerException when the answer is not one JSON value
   * @throws IOException when the stream fails
   */
  static Object values(InputStream json) throws IOException {
    try (JsonParser p = FACTORY.createParser(json)) {
      first(p);
      Object value = value(p);
      last(p);
      return value;
    } catch (JsonProcessingException e) {
      throw notJson(e);
    }
  }

  /** The answer, which must be a JSON object. */
  static JsonAnswer parse(InputStream json) throws IOException {
    return of(values(json));
  }

  /**
   * The answer's list {@code name} ({@code {"jobs":[..]}}), each object made into a record by
   * {@code read} as soon as it is parsed, or null when absent; an element {@code read} makes
   * null is left out. The list may also come as rows, as the service answers when asked to
   * ({@code {"fields":[names],"rows":[[values],..]}}): each row is read as the object of those
   * names and values. Only one element is held at a time: squeue reads 100,000 jobs without
   * 100,000 maps alive at once, which cost it more in garbage collection than the parse itself.
   * The answer's other fields are parsed and dropped.
   *
   * @throws MalformedAnswerException when the answer is not a JSON object or an element is wrong
   * @throws IOException when the stream fails
   */
  static <T> List<T> list(InputStream json, String name, Function<JsonAnswer, T> read) throws IOException {
    try (JsonParser p = FACTORY.createParser(json)) {
      first(p);
      if (p.currentToken() != JsonToken.START_OBJECT) {
        value(p);
        throw new MalformedAnswerException("expected a JSON object");
      }
      List<T> out = null;
      JsonRow.Fields rowFields = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken token = p.nextToken();
        if (field.equals(name)) {
          out = objects(p, name, read);
        } else if (field.equals("fields") && token == JsonToken.START_ARRAY) {
          rowFields = rowFields(p);
        } else if (field.equals("rows") && token == JsonToken.START_ARRAY) {
          if (rowFields == null) {
            throw new MalformedAnswerException("rows: no fields before them");
          }
          out = rows(p, rowFields, read);
        } else {
          value(p);
        }
      }
      last(p);
      return out;
    } catch (JsonProcessingException e) {
      throw notJson(e);
    }
  }

  /** The list {@code name} at the parser (an array, or null), each object read by {@code read}. */
  private static <T> List<T> objects(JsonParser p, String name, Function<JsonAnswer, T> read) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      Object v = value(p);
      if (v != null) {
        throw new MalformedAnswerException(name + ": expected a list, got " + describe(v));
      }
      return null;
    }
    List<T> out = new ArrayList<>();
    for (int index = 0; p.nextToken() != JsonToken.END_ARRAY; index++) {
      keep(out, element(p, name, index, read));
    }
    return out;
  }

  /** The names of a rows answer's {@code fields}, each once. */
  private static JsonRow.Fields rowFields(JsonParser p) throws IOException {
    List<String> names = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      Object v = value(p);
      if (!(v instanceof String n)) {
        throw new MalformedAnswerException("fields[" + names.size() + "]: expected a string, got " + describe(v));
      }
      if (index.putIfAbsent(n, names.size()) != null) {
        throw new MalformedAnswerException("fields: \"" + n + "\" twice");
      }
      names.add(n);
    }
    return new JsonRow.Fields(List.copyOf(names), index);
  }

  /** A rows answer's rows, each a list of as many values as there are fields, read by {@code read}. */
  private static <T> List<T> rows(JsonParser p, JsonRow.Fields fields, Function<JsonAnswer, T> read)
      throws IOException {
    int width = fields.names().size();
    List<T> out = new ArrayList<>();
    for (int index = 0; p.nextToken() != JsonToken.END_ARRAY; index++) {
      String at = "rows[" + index + "]";
      if (p.currentToken() != JsonToken.START_ARRAY) {
        throw new MalformedAnswerException(at + ": expected a list of " + values(width) + ", got " + describe(value(p)));
      }
      Object[] values = new Object[width];
      int n = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        Object v = value(p);
        if (n < width) {
          values[n] = v;
        }
        n++;
      }
      if (n != width) {
        throw new MalformedAnswerException(at + ": expected " + values(width) + ", one for each field, got " + n);
      }
      keep(out, read.apply(new JsonAnswer(new JsonRow(fields, values), at)));
    }
    return out;
  }

  private static String values(int n) {
    return n + (n == 1 ? " value" : " values");
  }

  private static <T> void keep(List<T> out, T element) {
    if (element != null) {
      out.add(element);
    }
  }

  /** The {@code index}th object of list {@code name}, read by {@code read}. */
  private static <T> T element(JsonParser p, String name, int index, Function<JsonAnswer, T> read)
      throws IOException {
    String at = name + "[" + index + "]";
    Object v = value(p);
    if (!(v instanceof Map<?, ?> map)) {
      throw new MalformedAnswerException(at + ": expected an object, got " + describe(v));
    }
    return read.apply(new JsonAnswer(cast(map), at));
  }

  /** Moves to the answer's first token. */
  private static void first(JsonParser p) throws IOException {
    if (p.nextToken() == null) {
      throw new MalformedAnswerException("not JSON: the answer is empty");
    }
  }

  /** Checks that nothing follows the answer's value. */
  private static void last(JsonParser p) throws IOException {
    if (p.nextToken() != null) {
      throw new MalformedAnswerException("not JSON: more text after the value at " + where(p));
    }
  }

  private static MalformedAnswerException notJson(JsonProcessingException e) {
    return new MalformedAnswerException("not JSON: " + firstLine(e.getMessage()));
  }

  /** The answer as read by {@link #values}, which must be an object. */
  private static JsonAnswer of(Object answer) {
    if (answer instanceof Map<?, ?> map) {
      return new JsonAnswer(cast(map), "");
    }
    throw new MalformedAnswerException("expected a JSON object");
  }

  private static Object value(JsonParser p) throws IOException {
    JsonToken token = p.currentToken();
    return switch (token) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          map.put(name, value(p));
        }
        yield map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(value(p));
        }
        yield list;
      }
      case VALUE_STRING -> p.getText();
      // As small as fits, as Jackson's untyped values are: request maps are printed as they come.
      case VALUE_NUMBER_INT -> switch (p.getNumberType()) {
        case INT -> p.getIntValue();
        case LONG -> p.getLongValue();
        default -> p.getBigIntegerValue();
      };
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw new MalformedAnswerException("not JSON: unexpected " + token + " at " + where(p));
    };
  }

  private static String where(JsonParser p) {
    return "line " + p.currentTokenLocation().getLineNr() + ", column " + p.currentTokenLocation().getColumnNr();
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }

  /** A text field; a number is taken as its text (job ids come as either). Null when absent. */
  String string(String name) {
    Object v = fields.get(name);
    if (v == null || v instanceof String) {
      return (String) v;
    }
    if (v instanceof Number) {
      return v.toString();
    }
    throw wrong(name, "a string", v);
  }

  /** A text field that every answer of its kind has. */
  String requiredString(String name) {
    String v = string(name);
    if (v == null) {
      throw new MalformedAnswerException(field(name) + ": missing");
    }
    return v;
  }

  /** A whole number, or null when absent. */
  Long longValue(String name) {
    Object v = fields.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof Integer || v instanceof Long) {
      return ((Number) v).longValue();
    }
    throw wrong(name, "a whole number", v);
  }

  /** A whole number in int's range, or null when absent. */
  Integer integer(String name) {
    Long v = longValue(name);
    if (v == null) {
      return null;
    }
    if (v != v.intValue()) {
      throw wrong(name, "a whole number up to " + Integer.MAX_VALUE, v);
    }
    return v.intValue();
  }

  /** A number, or null when absent. */
  Double decimal(String name) {
    Object v = fields.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    throw wrong(name, "a number", v);
  }

  /** A whole number a record holds as a primitive: 0 when absent, as the service leaves zeros out. */
  long longOrZero(String name) {
    Long v = longValue(name);
    return v == null ? 0 : v;
  }

  int intOrZero(String name) {
    Integer v = integer(name);
    return v == null ? 0 : v;
  }

  double decimalOrZero(String name) {
    Double v = decimal(name);
    return v == null ? 0 : v;
  }

  Boolean bool(String name) {
    Object v = fields.get(name);
    if (v == null || v instanceof Boolean) {
      return (Boolean) v;
    }
    throw wrong(name, "true or false", v);
  }

  /** An ISO-8601 instant ({@code 2026-11-21T10:00:00Z}), as the API writes timestamps; null when absent. */
  Instant instant(String name) {
    Object v = fields.get(name);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String text)) {
      throw wrong(name, "an ISO-8601 instant", v);
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeException e) {
      throw new MalformedAnswerException(field(name) + ": not an ISO-8601 instant: " + e.getMessage());
    }
  }

  /** A list of strings, or null when absent. */
  List<String> strings(String name) {
    List<Object> list = list(name);
    if (list == null) {
      return null;
    }
    List<String> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      Object v = list.get(i);
      if (!(v instanceof String s)) {
        throw wrong(name + "[" + i + "]", "a string", v);
      }
      out.add(s);
    }
    return out;
  }

  /** A list of whole numbers in int's range, or null when absent. */
  List<Integer> integers(String name) {
    List<Object> list = list(name);
    if (list == null) {
      return null;
    }
    List<Integer> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof Integer v)) {
        throw wrong(name + "[" + i + "]", "a whole number up to " + Integer.MAX_VALUE, list.get(i));
      }
      out.add(v);
    }
    return out;
  }

  /** A list of objects, each made into a record by {@code read}, or null when absent. */
  <T> List<T> objects(String name, Function<JsonAnswer, T> read) {
    List<Object> list = list(name);
    if (list == null) {
      return null;
    }
    List<T> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      String at = field(name) + "[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> map)) {
        throw new MalformedAnswerException(at + ": expected an object, got " + describe(list.get(i)));
      }
      out.add(read.apply(new JsonAnswer(cast(map), at)));
    }
    return out;
  }

  /** An object made into a record by {@code read}, or null when absent. */
  <T> T object(String name, Function<JsonAnswer, T> read) {
    Map<String, Object> map = map(name);
    return map == null ? null : read.apply(new JsonAnswer(map, field(name)));
  }

  /** An object as plain values, or null when absent. */
  Map<String, Object> map(String name) {
    Object v = fields.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof Map<?, ?> map) {
      return cast(map);
    }
    throw wrong(name, "an object", v);
  }

  /** An object of text values (numbers and booleans taken as their text), or null when absent. */
  Map<String, String> stringMap(String name) {
    Map<String, Object> map = map(name);
    if (map == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    map.forEach((k, v) -> {
      if (v instanceof Map || v instanceof List) {
        throw wrong(name + "." + k, "a string", v);
      }
      out.put(k, v == null ? null : v.toString());
    });
    return out;
  }

  private List<Object> list(String name) {
    Object v = fields.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof List<?> list) {
      @SuppressWarnings("unchecked")
      List<Object> objects = (List<Object>) list;
      return objects;
    }
    throw wrong(name, "a list", v);
  }

  private MalformedAnswerException wrong(String name, String expected, Object got) {
    return new MalformedAnswerException(field(name) + ": expected " + expected + ", got " + describe(got));
  }

  private String field(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private static String describe(Object v) {
    if (v instanceof String s) {
      return "\"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
    }
    if (v instanceof Map) {
      return "an object";
    }
    if (v instanceof List) {
      return "a list";
    }
    return String.valueOf(v);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }

  /** The answer is not the JSON its endpoint documents; the message names the field. */
  static final class MalformedAnswerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedAnswerException(String message) {
      super(message);
    }
  }
}
