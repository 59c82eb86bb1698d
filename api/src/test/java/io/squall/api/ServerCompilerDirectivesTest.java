package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/squall server} gives the controller's JVM compiler directives that keep the web stack
 * at C1 (README: Benchmarks): the JVM must accept them (a file it cannot read stops the controller
 * before it starts), and they must leave Squall's, the JDK's and H2's code to C2, where the
 * scheduler's cycles and the state writer spend their time.
 */
class ServerCompilerDirectivesTest {
  private static final Path DIRECTIVES = Path.of("..", "bin", "server-compiler-directives.json");

  @Test
  void theLauncherGivesTheDirectivesToTheController() throws IOException {
    String launcher = Files.readString(Path.of("..", "bin", "squall"));
    assertThat(launcher)
        .contains("server_jvm_flags=\"$server_jvm_flags -XX:CompilerDirectivesFile=$root/bin/server-compiler-directives.json\"")
        .contains("-XX:+UnlockDiagnosticVMOptions")
        .contains("exec java $server_jvm_flags ");
  }

  @Test
  void theJvmAcceptsThemAndTheyKeepC2ForTheSchedulerAndTheStore() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p = new ProcessBuilder(java, "-XX:+UnlockDiagnosticVMOptions",
        "-XX:CompilerDirectivesFile=" + DIRECTIVES.toAbsolutePath(), "-version").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("1 compiler directives added");

    String text = Files.readString(DIRECTIVES);
    assertThat(text).contains("\"io/micronaut/*.*\"", "\"io/netty/*.*\"", "c2: { Exclude: true }")
        .doesNotContain("io/squall", "java/", "jdk/", "org/h2", "c1:");
  }
}
