package io.squall.api.bench;

import io.micronaut.context.env.yaml.YamlPropertySourceLoader;
import io.squall.agent.JavaCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The settings of a controller that a bench or a test starts, by property name ({@code
 * squall.data-dir}, {@code micronaut.server.port}): given to one in this JVM as a {@link #map}, or
 * to one in its own JVM ({@link #startJvm}) as a configuration file.
 */
public final class ControllerSettings {
  private final Map<String, Object> values = new LinkedHashMap<>();

  private ControllerSettings() {}

  /**
   * A controller listening on {@code port} (-1: any free one) that keeps its data under {@code
   * dataDir} and gets its nodes from {@code provider} ({@code none}: static nodes whose agents come
   * by themselves).
   */
  public static ControllerSettings of(int port, Path dataDir, String provider) {
    return new ControllerSettings().with("micronaut.server.port", port).with("squall.data-dir", dataDir.toString())
        .with("squall.provider", provider);
  }

  public ControllerSettings with(String name, Object value) {
    values.put(name, value);
    return this;
  }

  /** The settings of {@code yaml}, a configuration file's text: what a block of them reads best as. */
  public ControllerSettings withYaml(String yaml) {
    values.putAll(new YamlPropertySourceLoader().read("settings", yaml.getBytes(StandardCharsets.UTF_8)));
    return this;
  }

  /** On the PostgreSQL at {@code jdbcUrl} (its user in the URL), not on H2 under the data directory. */
  public ControllerSettings postgres(String jdbcUrl) {
    return with("datasources.default.url", jdbcUrl).with("datasources.default.username", "")
        .with("datasources.default.password", "");
  }

  /** One of the controllers that share a PostgreSQL database: it leads or stands by; the others reach it at {@code advertiseUrl}. */
  public ControllerSettings highlyAvailable(String advertiseUrl) {
    return with("squall.ha.enabled", true).with("squall.ha.advertise-url", advertiseUrl);
  }

  /** The settings as {@code ApplicationContext.run} takes them; the caller's to change. */
  public Map<String, Object> map() {
    return new HashMap<>(values);
  }

  /**
   * Writes the settings to {@code file} as YAML, a line a property, that only its owner may read:
   * they hold tokens, and the controller warns of a configuration file that others can read.
   */
  public Path write(Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    values.forEach((name, value) -> lines.add(name + ": " + yaml(value)));
    Files.writeString(file, String.join("\n", lines) + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  /**
   * Starts a controller in a JVM of its own, as {@code squall server} does, on these settings
   * (written to {@code file}); everything it prints goes to {@code log}.
   *
   * @param jvmFlags flags for its JVM before the settings (the launcher's), or none
   * @param logLevel its {@code SQUALL_LOG_LEVEL}, or null for the default
   */
  public Process startJvm(Path file, List<String> jvmFlags, String logLevel, Path log) throws IOException {
    List<String> command = new ArrayList<>(List.of(JavaCommand.executable()));
    command.addAll(jvmFlags);
    command.add("-Dmicronaut.config.files=" + write(file));
    if (logLevel != null) {
      command.add("-DSQUALL_LOG_LEVEL=" + logLevel);
    }
    command.addAll(List.of("-cp", JavaCommand.classPath(), "io.squall.api.Application"));
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  private static String yaml(Object value) {
    if (value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(ControllerSettings::yaml).collect(Collectors.joining(", ", "[", "]"));
    }
    if (value instanceof CharSequence text) {
      return "'" + text.toString().replace("'", "''") + "'";
    }
    throw new IllegalArgumentException("a setting is text, a number, true or false, or a list of them; not "
        + value.getClass().getName());
  }
}
