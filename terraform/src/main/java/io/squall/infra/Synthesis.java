package io.squall.infra;

import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.AppConfig;
import io.squall.infra.config.ClusterConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Synthesizes a cluster's stack and puts {@code cdk.tf.json} into the output directory whole or
 * not at all: CDKTF writes into a scratch directory beside it, and the file is moved in at the end.
 */
public final class Synthesis {
  public static final String FILE = "cdk.tf.json";

  private Synthesis() {}

  /**
   * Writes {@code out/cdk.tf.json} (making {@code out} if needed) and returns its path.
   *
   * @throws InfraException when {@code out} exists and is not a directory, or cannot be written
   */
  public static Path write(ClusterConfig config, Path out) throws InfraException {
    Path target = out.toAbsolutePath().normalize();
    if (Files.exists(target) && !Files.isDirectory(target)) {
      throw new InfraException("--out " + out + ": exists and is not a directory");
    }
    Path parent = target.getParent();
    Path scratch;
    try {
      Files.createDirectories(parent);
      scratch = Files.createTempDirectory(parent, ".squall-infra-");
    } catch (IOException e) {
      throw new InfraException("--out " + out + ": cannot write beside it: " + e.getMessage(), e);
    }
    try {
      App app = new App(AppConfig.builder().outdir(scratch.toString()).build());
      InfraStack.create(app, config);
      app.synth();
      Path json = scratch.resolve("stacks").resolve(InfraStack.NAME).resolve(FILE);
      Files.createDirectories(target);
      Path staged = Files.createTempFile(target, ".cdk.tf.", ".json");
      try {
        Files.copy(json, staged, StandardCopyOption.REPLACE_EXISTING);
        return Files.move(staged, target.resolve(FILE), StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(staged); // gone once moved; a failed move leaves nothing behind in --out
      }
    } catch (IOException e) {
      throw new InfraException("--out " + out + ": cannot write " + FILE + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      // CDKTF runs in Node.js through jsii: a missing or broken Node surfaces here, as a JsiiError.
      throw new InfraException("CDKTF could not synthesize (it runs Node.js through jsii: is node on the PATH?): "
          + e.getMessage(), e);
    } finally {
      delete(scratch);
    }
  }

  private static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("removing the scratch directory " + dir, e);
    }
  }
}
