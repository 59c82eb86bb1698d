package io.squall.cli.service;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the service listens, the token to show it and the CA its https certificate is checked
 * against. The environment ({@code SQUALL_URL}, {@code SQUALL_TOKEN}, {@code SQUALL_CA_FILE}) wins
 * over the config file ({@code $SQUALL_CONFIG}, else {@code ~/.config/squall/config}, lines
 * {@code url = ...}, {@code token = ...} and {@code ca-file = ...}), so a one-off override needs no
 * file edit. The URL may name several controllers separated by commas (high availability): the
 * client talks to whichever leads ({@link io.squall.agent.ControllerAddresses}).
 *
 * @param token null when none is configured (the service then answers 401)
 * @param configFile the file that was or would have been read, for messages
 * @param caFile the PEM file of the CA that signed the service's certificate; null for the JDK's trusted CAs
 */
public record ServiceAddress(String url, String token, Path configFile, Path caFile) {
  public static final String DEFAULT_URL = "http://127.0.0.1:6820";
  private static final List<String> SETTINGS = List.of("url", "token", "ca-file");

  public ServiceAddress(String url, String token, Path configFile) {
    this(url, token, configFile, null);
  }

  /** @throws ServiceConfigException when a named or present config file cannot be used */
  public static ServiceAddress resolve(Map<String, String> env) {
    String explicit = blankToNull(env.get("SQUALL_CONFIG"));
    Path file = explicit != null ? Path.of(explicit)
        : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".config", "squall", "config");
    Map<String, String> settings = Map.of();
    try {
      settings = read(file);
    } catch (NoSuchFileException e) {
      // The default file is optional; one named in SQUALL_CONFIG is not.
      if (explicit != null) {
        throw new ServiceConfigException("SQUALL_CONFIG names " + file + ", which does not exist");
      }
    } catch (IOException e) {
      throw new ServiceConfigException("cannot read " + file + ": " + e.getMessage());
    }
    String url = firstNonNull(blankToNull(env.get("SQUALL_URL")), settings.get("url"), DEFAULT_URL);
    String token = firstNonNull(blankToNull(env.get("SQUALL_TOKEN")), settings.get("token"), null);
    String caFile = firstNonNull(blankToNull(env.get("SQUALL_CA_FILE")), blankToNull(settings.get("ca-file")), null);
    // A header value cannot hold a line break: a token pasted with its newline would otherwise fail
    // deep in the HTTP client.
    if (token != null && token.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new ServiceConfigException("the token (SQUALL_TOKEN or 'token =' in " + file
          + ") contains a control character, such as a line break; give the token alone");
    }
    if (url.chars().anyMatch(c -> c <= 0x20 || c == 0x7f)) {
      throw new ServiceConfigException("the service URL contains a space or control character");
    }
    // Several controllers (high availability) are given separated by commas; the client follows the leader.
    List<String> urls = new java.util.ArrayList<>();
    for (String one : url.split(",", -1)) {
      String lower = one.toLowerCase(Locale.ROOT);
      if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
        throw new ServiceConfigException("the service URL '" + one + "' must start with http:// or https://");
      }
      while (one.endsWith("/")) {
        one = one.substring(0, one.length() - 1);
      }
      urls.add(one);
    }
    url = String.join(",", urls);
    return new ServiceAddress(url, token, file, caFile == null ? null : Path.of(caFile));
  }

  private static Map<String, String> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    Map<String, String> settings = new java.util.LinkedHashMap<>();
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int eq = line.indexOf('=');
      if (eq < 0) {
        throw new ServiceConfigException(file + " line " + (n + 1) + ": expected 'url = ...', 'token = ...' or 'ca-file = ...'");
      }
      String key = line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
      if (!SETTINGS.contains(key)) {
        throw new ServiceConfigException(file + " line " + (n + 1) + ": unknown setting '" + key
            + "' (known: " + String.join(", ", SETTINGS) + ")");
      }
      settings.put(key, unquote(line.substring(eq + 1).strip()));
    }
    return settings;
  }

  private static String unquote(String v) {
    if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
      return v.substring(1, v.length() - 1);
    }
    return v;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }

  private static String firstNonNull(String a, String b, String c) {
    return a != null ? a : b != null ? b : c;
  }
}
