package io.squall.infra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hashicorp.cdktf.Testing;
import io.squall.infra.config.Cloud;
import io.squall.infra.config.ClusterConfig;
import io.squall.infra.config.ConfigFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** A configuration synthesized with CDKTF's Testing helpers, read back as JSON. */
record Synthesized(ClusterConfig config, JsonNode json) {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The repository's examples directory (tests run in terraform/). */
  static final Path EXAMPLES = Path.of("..", "examples");

  static Synthesized example(String file, Cloud cloud) {
    return of(EXAMPLES.resolve(file), cloud);
  }

  static Synthesized of(Path file, Cloud cloud) {
    try {
      ClusterConfig config = ClusterConfig.read(ConfigFile.read(file), cloud);
      String json = Testing.synth(InfraStack.create(Testing.app(), config));
      return new Synthesized(config, JSON.readTree(json));
    } catch (InfraException e) {
      throw new AssertionError(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The example file with {@code replacements} (text to text) applied, written to {@code dir}. */
  static Path variant(Path dir, String example, Map<String, String> replacements) {
    try {
      String text = Files.readString(EXAMPLES.resolve(example));
      for (Map.Entry<String, String> r : replacements.entrySet()) {
        if (!text.contains(r.getKey())) {
          throw new AssertionError(example + " no longer contains: " + r.getKey());
        }
        text = text.replace(r.getKey(), r.getValue());
      }
      return Files.writeString(dir.resolve(example), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code resource.TYPE.NAME}, failing when it is missing. */
  JsonNode resource(String type, String name) {
    JsonNode r = json.path("resource").path(type).path(name);
    if (r.isMissingNode()) {
      throw new AssertionError("no resource " + type + "." + name + "; there are " + names("resource", type));
    }
    return r;
  }

  /** Every {@code resource.TYPE.*}. */
  List<JsonNode> resources(String type) {
    List<JsonNode> out = new ArrayList<>();
    json.path("resource").path(type).forEach(out::add);
    return out;
  }

  JsonNode data(String type, String name) {
    JsonNode d = json.path("data").path(type).path(name);
    if (d.isMissingNode()) {
      throw new AssertionError("no data " + type + "." + name + "; there are " + names("data", type));
    }
    return d;
  }

  List<String> names(String kind, String type) {
    List<String> out = new ArrayList<>();
    for (Iterator<String> it = json.path(kind).path(type).fieldNames(); it.hasNext(); ) {
      out.add(it.next());
    }
    return out;
  }

  /** The text values of an array node. */
  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
