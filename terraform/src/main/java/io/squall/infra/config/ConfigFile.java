package io.squall.infra.config;

import io.squall.infra.InfraException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The controller's configuration file, read as Micronaut reads it: YAML whose keys may be nested
 * ({@code squall: {aws: {region: x}}}) or dotted ({@code squall.aws.region: x}), with
 * {@code ${NAME:default}} placeholders. Lookups take the dotted key the README's table names; a
 * map's own keys may hold dots themselves (zones, instance types), so at each level the longest
 * matching key wins.
 *
 * <p>Placeholders are read as their default: the controller resolves them from its environment
 * on its own host, which is not the machine that synthesizes. A placeholder without a default is
 * refused where the infrastructure needs its value.
 */
public final class ConfigFile {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}:]+)(?::([^}]*))?}");

  private final Path path;
  private final String text;
  private final Map<?, ?> root;

  private ConfigFile(Path path, String text, Map<?, ?> root) {
    this.path = path;
    this.text = text;
    this.root = root;
  }

  /**
   * Reads {@code path}.
   *
   * @throws InfraException naming the file when it is missing, unreadable, not YAML, or not a map
   */
  public static ConfigFile read(Path path) throws InfraException {
    String text;
    try {
      text = Files.readString(path);
    } catch (NoSuchFileException e) {
      throw new InfraException(path + ": no such file");
    } catch (IOException e) {
      throw new InfraException(path + ": cannot read it: " + e.getMessage(), e);
    }
    Object loaded;
    try {
      loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    } catch (YAMLException e) {
      throw new InfraException(path + ": not valid YAML: " + e.getMessage().replaceAll("\\s+", " ").trim(), e);
    }
    if (!(loaded instanceof Map<?, ?> map)) {
      throw new InfraException(path + ": not a YAML map of settings (expected keys such as squall.partitions)");
    }
    return new ConfigFile(path, text, map);
  }

  public Path path() {
    return path;
  }

  /** The file as written, for the controller's own copy. */
  public String text() {
    return text;
  }

  /** The value under a dotted key, empty when it is not set. */
  public Optional<Object> find(String key) {
    return Optional.ofNullable(find(root, key));
  }

  private static Object find(Object node, String key) {
    if (!(node instanceof Map<?, ?> map)) {
      return null;
    }
    if (map.containsKey(key)) {
      return map.get(key);
    }
    String[] parts = key.split("\\.");
    for (int i = parts.length - 1; i >= 1; i--) {
      String head = String.join(".", List.of(parts).subList(0, i));
      if (map.containsKey(head)) {
        Object found = find(map.get(head), String.join(".", List.of(parts).subList(i, parts.length)));
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /** A scalar as text (placeholders read as their default), or {@code fallback} when unset. */
  public String string(String key, String fallback) throws InfraException {
    Optional<Object> v = find(key);
    if (v.isEmpty()) {
      return fallback;
    }
    return scalar(key, v.get());
  }

  /** A scalar as text that must be set; {@code why} says what the infrastructure needs it for. */
  public String required(String key, String why) throws InfraException {
    String v = string(key, null);
    if (v == null || v.isBlank()) {
      throw error(key, "missing: " + why);
    }
    return v;
  }

  public int integer(String key, int fallback) throws InfraException {
    String v = string(key, null);
    if (v == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw error(key, "'" + v + "' is not a whole number");
    }
  }

  public boolean bool(String key, boolean fallback) throws InfraException {
    String v = string(key, null);
    if (v == null) {
      return fallback;
    }
    return switch (v.trim()) {
      case "true" -> true;
      case "false" -> false;
      default -> throw error(key, "'" + v + "' is neither true nor false");
    };
  }

  /** A list of scalars (a YAML list, or one comma-separated string as Micronaut also takes); empty when unset. */
  public List<String> strings(String key) throws InfraException {
    Optional<Object> v = find(key);
    if (v.isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    if (v.get() instanceof List<?> list) {
      for (Object o : list) {
        out.add(scalar(key, o));
      }
    } else {
      for (String s : scalar(key, v.get()).split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
    }
    return List.copyOf(out);
  }

  /** A map of scalars in file order; empty when unset. */
  public Map<String, String> stringMap(String key) throws InfraException {
    Optional<Object> v = find(key);
    if (v.isEmpty()) {
      return Map.of();
    }
    if (!(v.get() instanceof Map<?, ?> map)) {
      throw error(key, "expected a map (key: value), found '" + v.get() + "'");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      out.put(String.valueOf(e.getKey()), scalar(key + "." + e.getKey(), e.getValue()));
    }
    return out;
  }

  /** The names of the maps under {@code key} (the partitions under {@code squall.partitions}), in file order. */
  public List<String> names(String key) throws InfraException {
    Optional<Object> v = find(key);
    if (v.isEmpty()) {
      return List.of();
    }
    if (!(v.get() instanceof Map<?, ?> map)) {
      throw error(key, "expected a map of names to settings, found '" + v.get() + "'");
    }
    List<String> out = new ArrayList<>();
    for (Object name : map.keySet()) {
      out.add(String.valueOf(name));
    }
    return List.copyOf(out);
  }

  /** An error about {@code key} in this file: {@code FILE: KEY: message}. */
  public InfraException error(String key, String message) {
    return new InfraException(path + ": " + key + ": " + message);
  }

  private String scalar(String key, Object value) throws InfraException {
    if (value instanceof Map<?, ?> || value instanceof List<?>) {
      throw error(key, "expected a single value, found '" + value + "'");
    }
    String s = value == null ? "" : String.valueOf(value);
    Matcher m = PLACEHOLDER.matcher(s);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      if (m.group(2) == null) {
        throw error(key, "'" + s + "' is resolved from the controller's environment (" + m.group(1)
            + "), and infra synth needs its value: write the value, or give the placeholder a default (${"
            + m.group(1) + ":VALUE})");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(2)));
    }
    m.appendTail(out);
    return out.toString();
  }
}
