package io.squall.agent;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Asks nvidia-smi what GPUs the node has, when the agent's command line does not say: a node
 * started without {@code --gpus} then offers the GPUs it has, no more and no fewer.
 */
final class GpuProbe {
  /** The node's GPUs: how many and the type as Slurm's gres names it ({@code h100}). */
  record Gpus(int count, String type) {}

  private GpuProbe() {}

  /** Empty when nvidia-smi is not on {@code path} or does not answer usefully. */
  static Optional<Gpus> detect(String path) {
    Optional<Path> smi = CommandLookup.find("nvidia-smi", path == null ? "" : path, Path.of("/"));
    if (smi.isEmpty()) {
      return Optional.empty();
    }
    try {
      File output = File.createTempFile("nvidia-smi", ".csv");
      try {
        Process p = new ProcessBuilder(smi.get().toString(), "--query-gpu=index,name", "--format=csv,noheader")
            .redirectOutput(output)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          return Optional.empty();
        }
        if (p.exitValue() != 0) {
          return Optional.empty();
        }
        return parse(Files.readAllLines(output.toPath(), StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(output.toPath());
      }
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** Reads {@code 0, NVIDIA H100 80GB HBM3} lines; the first GPU's name gives the type. */
  static Optional<Gpus> parse(List<String> lines) {
    int count = 0;
    String type = null;
    for (String line : lines) {
      int comma = line.indexOf(',');
      if (line.isBlank() || comma < 0) {
        continue;
      }
      count++;
      if (type == null) {
        type = typeOf(line.substring(comma + 1).trim());
      }
    }
    return count == 0 ? Optional.empty() : Optional.of(new Gpus(count, type));
  }

  /**
   * The model as gres types name it: the first word with a digit, before any dash, lower case
   * ({@code NVIDIA H100 80GB HBM3} is {@code h100}, {@code Tesla V100-SXM2-16GB} is {@code v100}).
   */
  static String typeOf(String name) {
    for (String word : name.split("\\s+")) {
      if (word.chars().anyMatch(Character::isDigit)) {
        return word.split("-")[0].toLowerCase(Locale.ROOT);
      }
    }
    return name.isBlank() ? null : name.trim().toLowerCase(Locale.ROOT).replace(' ', '_');
  }
}
