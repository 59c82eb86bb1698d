package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/squall server} on the embedded H2 (no other {@code DATASOURCES_DEFAULT_URL}) gives the
 * controller's JVM compiler directives that keep the web stack at C1 (README: Benchmarks): the JVM
 * must accept them (a file it cannot read stops the controller
 * before it starts), and they must leave Squall's, the JDK's and H2's code to C2, where the
 * scheduler's cycles and the state writer spend their time.
 */
class ServerCompilerDirectivesTest {
  private static final Path DIRECTIVES = Path.of("..", "bin", "server-compiler-directives.json");

  @Test
  void theLauncherGivesTheDirectivesToAControllerOnH2AndNotOnPostgres() throws Exception {
    String launcher = Files.readString(Path.of("..", "bin", "squall"));
    assertThat(launcher).contains("exec java $server_jvm_flags ");
    String directives = "-XX:CompilerDirectivesFile=/squall/bin/server-compiler-directives.json";
    assertThat(serverFlags(launcher, null)).startsWith("-Xmx640m").contains("-XX:+UnlockDiagnosticVMOptions", directives);
    assertThat(serverFlags(launcher, "jdbc:h2:file:/var/lib/squall/db")).contains(directives);
    assertThat(serverFlags(launcher, "jdbc:postgresql://db.example/squall"))
        .startsWith("-Xmx640m").doesNotContain("CompilerDirectivesFile", "UnlockDiagnosticVMOptions");
  }

  /** The controller's flags as bin/squall computes them (its lines from server_jvm_flags to the case's end), run by bash. */
  private static String serverFlags(String launcher, String databaseUrl) throws Exception {
    int from = launcher.indexOf("server_jvm_flags=\"-Xmx");
    int to = launcher.indexOf("\nesac\n", from) + "\nesac\n".length();
    assertThat(from).isNotNegative();
    ProcessBuilder pb = new ProcessBuilder("bash", "-c",
        "root=/squall\n" + launcher.substring(from, to) + "printf %s \"$server_jvm_flags\"").redirectErrorStream(true);
    pb.environment().remove("DATASOURCES_DEFAULT_URL");
    if (databaseUrl != null) {
      pb.environment().put("DATASOURCES_DEFAULT_URL", databaseUrl);
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
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
