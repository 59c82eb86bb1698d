package io.squall.api.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three launchers as people meet them: reached through a symlink from a directory with a
 * space in its name, with Java only through JAVA_HOME, and refusing clearly when there is no Java
 * 17+.
 */
class LaunchersIT {
  private static final List<String> VERBS = List.of("sbatch", "squeue", "scancel", "srun", "salloc", "sinfo", "sacct",
      "scontrol", "sprio", "sshare");

  @Test
  void theCliRunsThroughASymlinkFromAPathWithASpaceWithJavaFromJavaHomeOnly(@TempDir Path dir) throws Exception {
    Path cli = Unpacked.unpack("cli", dir.resolve("with space"));
    for (String verb : VERBS) {
      assertThat(cli.resolve("bin").resolve(verb)).as(verb).isExecutable();
    }
    Path links = Files.createDirectories(dir.resolve("links"));
    Files.createSymbolicLink(links.resolve("sbatch"), cli.resolve("bin/sbatch"));
    Path script = dir.resolve("job.sh");
    Files.writeString(script, "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:8\nsrun hostname\n",
        StandardCharsets.UTF_8);
    Map<String, String> env = Unpacked.environment(dir);
    env.put("PATH", withoutJava(dir).toString());
    env.put("JAVA_HOME", System.getProperty("java.home"));

    Unpacked.Result parsed = Unpacked.run(List.of(links.resolve("sbatch").toString(), "--parse-only",
        script.toString()), dir, env);

    assertThat(parsed.exit()).as(parsed.output()).isZero();
    assertThat(parsed.output()).contains("\"nodes_min\":2", "\"gpus_per_node\":8");
  }

  @Test
  void everyLauncherSaysWhatToDoWithoutJava(@TempDir Path dir) throws Exception {
    Map<String, String> env = Unpacked.environment(dir);
    env.put("PATH", withoutJava(dir).toString());
    for (Path launcher : launchers(dir)) {
      Unpacked.Result r = Unpacked.run(List.of(launcher.toString()), dir, env);

      assertThat(r.exit()).as(launcher + ": " + r.output()).isEqualTo(1);
      assertThat(r.output()).as(launcher.toString()).contains(launcher.getFileName() + ": no Java runtime found:")
          .contains("Java 17 or later").contains("JAVA_HOME");
    }
  }

  @Test
  void everyLauncherRefusesAJavaOlderThan17(@TempDir Path dir) throws Exception {
    Path oldJava = Files.createDirectories(dir.resolve("jdk-11/bin")).resolve("java");
    Files.writeString(oldJava, "#!/bin/sh\necho 'openjdk version \"11.0.22\" 2024-01-16' >&2\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(oldJava, PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> env = Unpacked.environment(dir);
    env.put("JAVA_HOME", dir.resolve("jdk-11").toString());
    for (Path launcher : launchers(dir)) {
      Unpacked.Result r = Unpacked.run(List.of(launcher.toString()), dir, env);

      assertThat(r.exit()).as(launcher + ": " + r.output()).isEqualTo(1);
      assertThat(r.output()).as(launcher.toString()).contains("is Java 11; Squall needs 17 or later");
    }
  }

  @Test
  void theServerSaysWhichConfigFileItCannotRead(@TempDir Path dir) throws Exception {
    Path server = Unpacked.unpack("server", dir);

    Unpacked.Result r = Unpacked.run(List.of(server.resolve("bin/squall-server").toString(), "--config",
        dir.resolve("missing.yml").toString()), dir, Unpacked.environment(dir));

    assertThat(r.exit()).as(r.output()).isEqualTo(2);
    assertThat(r.output()).contains("--config " + dir.resolve("missing.yml") + ": no such readable file");
  }

  private static List<Path> launchers(Path dir) throws Exception {
    return List.of(Unpacked.unpack("server", dir).resolve("bin/squall-server"),
        Unpacked.unpack("agent", dir).resolve("bin/squall-agent"), Unpacked.unpack("cli", dir).resolve("bin/squall"));
  }

  /** A directory with only the tools the launchers use besides java, for a PATH without any java. */
  private static Path withoutJava(Path dir) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("no-java-bin"));
    for (String tool : List.of("sh", "bash", "dirname", "readlink", "sed", "head", "basename", "cat", "env")) {
      Path link = bin.resolve(tool);
      if (!Files.exists(link)) {
        Path real = Files.exists(Path.of("/usr/bin", tool)) ? Path.of("/usr/bin", tool) : Path.of("/bin", tool);
        Files.createSymbolicLink(link, real);
      }
    }
    return bin;
  }
}
