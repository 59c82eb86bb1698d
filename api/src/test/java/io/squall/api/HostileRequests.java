package io.squall.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Generates hostile requests from a seed: each starts from a request the API accepts and is then
 * broken the way a careless or hostile client would break it (NULs and control characters, huge
 * numbers and strings, nulls and wrong types in JSON, trailing garbage, broken UTF-8, unknown
 * jobs and nodes, malformed hostlists and GRES). The same seed gives the same requests.
 */
final class HostileRequests {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Values that have broken parsers before, or would break a careless one. */
  static final List<String> STRINGS = List.of("", " ", "\u0000", "a\u0000b", "\n", "x\r\ny", "\t", "\u001b[31mred",
      "\u007f", "../../etc/passwd", "/etc/shadow", "../data/x", "%00", "%", "'; DROP TABLE jobs; --", "\"", "\\",
      "{}", "[]", "null", "true", "-1", "0", "1", "2147483648", "99999999999999999999", "-99999999999999999999",
      "1e309", "NaN", "\uD83D\uDE00", "\uD800", "n[1-99999999999999999999]", "n[1-99999999]", "n[5-1]", "n[",
      "gpu::", "gpu:h100:-1", "gpu:h100:99999999999", "1_[", "1_99999999999", "1_", "_1", "*", "--", "-", "=",
      "a=b", "%99999999i", "1-", "[", "]", "${HOME}", "$(touch /tmp/pwned)", "afterok:999999", "afterok:1:1:1",
      "node-1", "gpu", "research", "alice", "USR1@99999999", "B:KILL@-1", "stdout", "stderr",
      "2026-13-45T99:99:99", "now+99999999999days", "0-99999999", "999999", "999999999", "h100:999999999",
      "x".repeat(256), "x".repeat(5000), "/".repeat(4097), "a\u0000".repeat(100));

  private final Random random;

  HostileRequests(long seed) {
    this.random = new Random(seed);
  }

  /** One request: the method, path with query, content type (null for none) and body bytes (null for none). */
  record Request(String method, String path, String contentType, byte[] body) {
    @Override
    public String toString() {
      String b = body == null ? "" : new String(body, StandardCharsets.UTF_8);
      return method + " " + shorten(path) + (b.isEmpty() ? "" : " " + shorten(b));
    }

    private static String shorten(String s) {
      return s.length() > 300 ? s.substring(0, 300) + "... (" + s.length() + " characters)" : s;
    }
  }

  String string() {
    return STRINGS.get(random.nextInt(STRINGS.size()));
  }

  boolean chance(int percent) {
    return random.nextInt(100) < percent;
  }

  <T> T pick(List<T> from) {
    return from.get(random.nextInt(from.size()));
  }

  /** A JSON value of any type, mostly hostile. */
  Object value() {
    return switch (random.nextInt(10)) {
      case 0 -> null;
      case 1 -> random.nextBoolean();
      case 2 -> pick(List.<Object>of(-1, 0, Long.MAX_VALUE, Long.MIN_VALUE, 1.5, 1e300, Integer.MAX_VALUE));
      case 3 -> Arrays.asList(string(), null, 7);
      case 4 -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(string(), random.nextBoolean() ? null : string());
        yield m;
      }
      default -> string();
    };
  }

  /**
   * A JSON body made hostile: fields set to hostile values or wrong types, removed, or unknown
   * ones added; or the text itself broken (trailing data, truncated, not an object, bad UTF-8).
   */
  byte[] jsonBody(Map<String, Object> valid) {
    Map<String, Object> body = new LinkedHashMap<>(valid);
    List<String> keys = new ArrayList<>(body.keySet());
    int mutations = 1 + random.nextInt(3);
    for (int i = 0; i < mutations && !keys.isEmpty(); i++) {
      String key = pick(keys);
      switch (random.nextInt(4)) {
        case 0 -> body.remove(key);
        case 1 -> body.put(string(), value());
        default -> body.put(key, nested(body.get(key)));
      }
    }
    String text;
    try {
      text = JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    if (chance(25)) {
      text = switch (random.nextInt(8)) {
        case 0 -> text + "garbage";
        case 1 -> text + "{}";
        case 2 -> text.substring(0, random.nextInt(text.length()));
        case 3 -> "[" + text + "]";
        case 4 -> "null";
        case 5 -> "";
        case 6 -> keys.isEmpty() ? "{\"a\":1,\"a\":2}" : text.replaceFirst("\\{", "{\"" + keys.get(0) + "\":1,");
        default -> "\"" + text.replace("\"", "\\\"") + "\"";
      };
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (chance(5) && bytes.length > 2) {
      bytes[random.nextInt(bytes.length)] = (byte) 0xC3; // a broken UTF-8 sequence
    }
    return bytes;
  }

  /** Replaces a value with a hostile one of a like or another shape (a list keeps being a list, mostly). */
  private Object nested(Object old) {
    if (old instanceof List<?> list && chance(60)) {
      List<Object> out = new ArrayList<>(list);
      out.add(value());
      return out;
    }
    if (old instanceof Map<?, ?> map && chance(60)) {
      Map<Object, Object> out = new LinkedHashMap<>(map);
      out.put(chance(50) ? string() : "gres", value());
      return out;
    }
    return value();
  }

  /**
   * {@code ?k=v&...} with the given parameter names, each present by chance with a hostile value,
   * within {@link #MAX_QUERY} characters. (A longer request line is refused with 414 before the
   * request is read, and the connection closed under a body still being sent: HostileInputTest
   * checks that on its own.)
   */
  String query(List<String> names) {
    StringBuilder q = new StringBuilder();
    for (String n : names) {
      if (chance(40)) {
        add(q, encode(n) + "=" + encode(string()));
      }
    }
    if (chance(10)) {
      add(q, encode(string()) + "=" + encode(string()));
    }
    return q.toString();
  }

  static final int MAX_QUERY = 3500;

  private static void add(StringBuilder q, String param) {
    if (q.length() + param.length() + 1 <= MAX_QUERY) {
      q.append(q.length() == 0 ? '?' : '&').append(param);
    }
  }

  /** A path segment: a real id now and then, else a hostile one (within the line limit, as for queries). */
  String segment(List<String> real) {
    String s = chance(30) && !real.isEmpty() ? pick(real) : string();
    return encode(s.length() > MAX_QUERY / 3 ? s.substring(0, MAX_QUERY / 3) : s);
  }

  static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
