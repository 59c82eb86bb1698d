package io.squall.api.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.Poll;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI distribution's class-data sharing archive (libexec/cli-java.sh): recorded in the
 * background by the first call, used by the next (the JVM says where Main came from), recorded
 * again when a jar is newer than it, and never the cause of a failed call, even when it is garbage.
 */
class CdsArchiveIT {
  private static final Duration RECORDING = Duration.ofMinutes(2);
  /** Where the JVM loaded a class from, as -Xlog:class+load prints it. */
  private static final String FROM_ARCHIVE = "io.squall.cli.Main source: shared objects file (top)";
  private static final String FROM_JAR = "io.squall.cli.Main source: file:";

  @Test
  void theFirstCallRecordsTheArchiveTheNextUseItAndANewerJarHasItRecordedAgain(@TempDir Path dir) throws Exception {
    Path cli = Unpacked.unpack("cli", dir);
    Path archive = cli.resolve("lib/squall-cli.jsa");
    Map<String, String> env = Unpacked.environment(dir);
    env.remove("SQUALL_CDS_ARCHIVE");
    env.put("SQUALL_JAVA_OPTS", "-Xlog:class+load=info");

    Unpacked.Result first = squall(cli, dir, env);
    assertThat(first.exit()).as(first.output()).isZero();
    assertThat(first.output()).contains(FROM_JAR);
    recorded(cli, archive);

    // -Xshare:on: the JVM stops rather than run without the archive.
    env.put("SQUALL_JAVA_OPTS", "-Xlog:class+load=info -Xshare:on");
    Unpacked.Result second = squall(cli, dir, env);
    assertThat(second.exit()).as(second.output()).isZero();
    assertThat(second.output()).contains(FROM_ARCHIVE).contains("usage: squall COMMAND");

    // A jar newer than the archive (as after an upgrade in place); both in the past, so that the
    // archive recorded again, dated when its recording began, is newer than the jar.
    Path jar = cli.resolve("lib/squall-cli-" + version(cli) + ".jar");
    FileTime before = FileTime.from(Instant.now().minusSeconds(60));
    Files.setLastModifiedTime(archive, before);
    Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(30)));
    env.put("SQUALL_JAVA_OPTS", "-Xlog:class+load=info");
    Unpacked.Result stale = squall(cli, dir, env);
    assertThat(stale.exit()).as(stale.output()).isZero();
    assertThat(stale.output()).as("a stale archive is not used").contains(FROM_JAR).doesNotContain(FROM_ARCHIVE);
    Poll.until("the archive recorded again", RECORDING, () -> modified(archive).compareTo(before) > 0
        && !Files.exists(cli.resolve("lib/squall-cli.jsa.lock")));

    env.put("SQUALL_JAVA_OPTS", "-Xlog:class+load=info -Xshare:on");
    Unpacked.Result again = squall(cli, dir, env);
    assertThat(again.exit()).as(again.output()).isZero();
    assertThat(again.output()).contains(FROM_ARCHIVE);
  }

  @Test
  void aBrokenArchiveCostsTimeNotTheCall(@TempDir Path dir) throws Exception {
    Path cli = Unpacked.unpack("cli", dir);
    Path archive = dir.resolve("broken.jsa");
    Files.writeString(archive, "not an archive\n", StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("broken.jsa.java"), Unpacked.javaBin().resolve("java") + "\n", StandardCharsets.UTF_8);
    Files.setLastModifiedTime(archive, FileTime.from(Instant.now().plusSeconds(3600)));
    Map<String, String> env = Unpacked.environment(dir);
    env.put("SQUALL_CDS_ARCHIVE", archive.toString());

    Unpacked.Result r = Unpacked.run(List.of(cli.resolve("bin/squeue").toString(), "--help"), dir, env);

    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).startsWith("Usage: squeue");
  }

  private static Unpacked.Result squall(Path cli, Path dir, Map<String, String> env) throws Exception {
    return Unpacked.run(List.of(cli.resolve("bin/squall").toString(), "--help"), dir, env);
  }

  /** Waits until the archive and the java that made it are in place and no recorder holds the lock. */
  private static void recorded(Path cli, Path archive) {
    Poll.until("the archive " + archive, RECORDING, () -> Files.isRegularFile(archive)
        && Files.isRegularFile(cli.resolve("lib/squall-cli.jsa.java"))
        && !Files.exists(cli.resolve("lib/squall-cli.jsa.lock")));
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      return FileTime.fromMillis(0); // unreadable counts as not recorded again
    }
  }

  private static String version(Path cli) {
    return cli.getFileName().toString().substring("squall-cli-".length());
  }
}
