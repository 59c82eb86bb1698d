package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Signals, exit statuses, the GPU probe, the command line, step numbers. */
class SmallPartsTest {
  private static final Supplier<Optional<GpuProbe.Gpus>> NO_GPUS = Optional::empty;

  @TempDir Path dir;

  @Test
  void signalsParseInEveryFormSlurmUses() {
    assertThat(PosixSignal.parse("TERM")).isEqualTo(PosixSignal.TERM);
    assertThat(PosixSignal.parse("sigusr1").number()).isEqualTo(10);
    assertThat(PosixSignal.parse("9")).isEqualTo(PosixSignal.KILL);
    assertThat(PosixSignal.parse("40").name()).isEqualTo("40");
    assertThatThrownBy(() -> PosixSignal.parse("NOPE"))
        .hasMessage("unknown signal 'NOPE': use a name like USR1 or a number from 1 to 64");
    assertThatThrownBy(() -> PosixSignal.parse("65")).isInstanceOf(IllegalArgumentException.class);
    assertThat(PosixSignal.of(2)).isEqualTo(new PosixSignal(2, "INT"));
    assertThat(PosixSignal.of(10).description()).isEqualTo("Killed by signal 10 (USR1)");
  }

  @Test
  void exitStatusesAbove128ReadAsSignals() {
    assertThat(ExitStatus.fromWaitStatus(0)).isEqualTo(new ExitStatus(0, null));
    assertThat(ExitStatus.fromWaitStatus(143)).isEqualTo(new ExitStatus(143, 15));
    assertThat(ExitStatus.fromWaitStatus(137)).isEqualTo(new ExitStatus(137, 9));
    assertThat(ExitStatus.fromWaitStatus(128)).isEqualTo(new ExitStatus(128, null));
    assertThat(ExitStatus.fromWaitStatus(255)).isEqualTo(new ExitStatus(255, null));
  }

  @Test
  void nvidiaSmiDecidesTheGpus() throws Exception {
    assertThat(GpuProbe.parse(List.of("0, NVIDIA H100 80GB HBM3", "1, NVIDIA H100 80GB HBM3", "")))
        .contains(new GpuProbe.Gpus(2, "h100"));
    assertThat(GpuProbe.typeOf("Tesla V100-SXM2-16GB")).isEqualTo("v100");
    assertThat(GpuProbe.typeOf("NVIDIA A100-SXM4-80GB")).isEqualTo("a100");
    assertThat(GpuProbe.parse(List.of())).isEmpty();

    Path smi = dir.resolve("nvidia-smi");
    Files.writeString(smi, "#!/bin/sh\necho '0, NVIDIA L4'\n");
    Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThat(GpuProbe.detect(dir + ":/usr/bin:/bin")).contains(new GpuProbe.Gpus(1, "l4"));
    assertThat(GpuProbe.detect("/nonexistent")).isEqualTo(Optional.empty());
  }

  @Test
  void theCommandLineNeedsItsEssentials() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertThatThrownBy(() -> AgentMain.start(List.of("--name", "n1"), Map.of(), errors))
        .isInstanceOfSatisfying(AgentMain.StartFailure.class, f -> assertThat(f.exitCode).isEqualTo(2));
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("squall-agent: error: --controller is required\n")
        .contains("usage: squall-agent");

    assertThatThrownBy(() -> AgentArgs.parse(List.of("--controller", "ftp://x", "--token", "t", "--name", "n",
        "--work-dir", "/tmp"), Map.of(), NO_GPUS))
        .hasMessageContaining("--controller must be an http:// or https:// address");
    assertThatThrownBy(() -> AgentArgs.parse(List.of("--controller", "http://c:1", "--token", "t", "--name", "n",
        "--work-dir", "/tmp", "--gpus", "many"), Map.of(), NO_GPUS))
        .hasMessage("--gpus must be a whole number, got 'many'");
    assertThatThrownBy(() -> AgentArgs.parse(List.of("--colour", "blue"), Map.of(), NO_GPUS))
        .hasMessage("unknown option --colour");
    assertThatThrownBy(() -> AgentArgs.parse(List.of("--port"), Map.of(), NO_GPUS)).hasMessage("--port needs a value");
  }

  @Test
  void aTokenFileOthersMayReadIsRefused() throws Exception {
    java.nio.file.Path file = java.nio.file.Files.createTempDirectory("agent-token").resolve("token");
    java.nio.file.Files.writeString(file, "secret");
    java.nio.file.Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> AgentArgs.parse(List.of("--controller", "http://c:1", "--token-file", file.toString(),
        "--name", "n", "--work-dir", "/tmp"), Map.of(), NO_GPUS)).hasMessageContaining("chmod 600");
    assertThatThrownBy(() -> AgentArgs.parse(List.of("--controller", "http://c:1", "--name", "n", "--work-dir", "/tmp"),
        Map.of("SQUALL_AGENT_TOKEN", "t"), NO_GPUS)).hasMessage("--token-file is required");
  }

  @Test
  void theCommandLineInFull() throws Exception {
    java.nio.file.Path tokenFile = java.nio.file.Files.createTempDirectory("agent-token").resolve("token");
    TokenFile.write(tokenFile, "from-file\n");
    AgentConfig c = AgentArgs.parse(List.of("--controller", "http://127.0.0.1:6820", "--name", "gpu-1",
        "--token-file", tokenFile.toString(),
        "--gpus=8", "--gpu-type", "h100", "--cpus", "96", "--memory-mb", "1000000", "--features", "a, b",
        "--placement-group", "pg-7", "--work-dir", "/var/lib/squall", "--port", "7000", "--bind", "0.0.0.0"),
        Map.of("SQUALL_AGENT_TOKEN", "from-env is not read"), () -> Optional.of(new GpuProbe.Gpus(1, "l4")));
    assertThat(c.token()).isEqualTo("from-file");
    assertThat(c.gpus()).isEqualTo(8);
    assertThat(c.gpuType()).isEqualTo("h100");
    assertThat(c.features()).containsExactly("a", "b");
    assertThat(c.placementGroup()).isEqualTo("pg-7");
    assertThat(c.port()).isEqualTo(7000);
    assertThat(c.bind()).isEqualTo("0.0.0.0");
    assertThat(c.memoryMb()).isEqualTo(1_000_000L);
    assertThat(c.interruptions()).isEqualTo(Interruptions.NONE);
    assertThat(c.metadataUrl()).isNull();
  }

  @Test
  void theCommandLineNamesTheCloudToWatch() throws Exception {
    List<String> base = List.of("--controller", "http://127.0.0.1:6820", "--token", "t", "--name", "n",
        "--work-dir", "/tmp", "--gpus", "0");
    List<String> gcp = new ArrayList<>(base);
    gcp.addAll(List.of("--interruptions", "gcp", "--metadata-url", "http://127.0.0.1:8089"));
    AgentConfig c = AgentArgs.parse(gcp, Map.of(), NO_GPUS);
    assertThat(c.interruptions()).isEqualTo(Interruptions.GCP);
    assertThat(c.metadataUrl()).hasToString("http://127.0.0.1:8089");

    List<String> aws = new ArrayList<>(base);
    aws.add("--interruptions=aws");
    assertThat(AgentArgs.parse(aws, Map.of(), NO_GPUS).interruptions()).isEqualTo(Interruptions.AWS);

    List<String> azure = new ArrayList<>(base);
    azure.addAll(List.of("--interruptions", "azure"));
    assertThatThrownBy(() -> AgentArgs.parse(azure, Map.of(), NO_GPUS))
        .hasMessage("--interruptions must be aws, gcp or none, got 'azure'");
    List<String> urlAlone = new ArrayList<>(base);
    urlAlone.addAll(List.of("--metadata-url", "http://127.0.0.1:8089"));
    assertThatThrownBy(() -> AgentArgs.parse(urlAlone, Map.of(), NO_GPUS))
        .hasMessage("--metadata-url is only read with --interruptions aws or gcp");
    List<String> badUrl = new ArrayList<>(gcp);
    badUrl.addAll(List.of("--metadata-url", "metadata.google.internal"));
    assertThatThrownBy(() -> AgentArgs.parse(badUrl, Map.of(), NO_GPUS))
        .hasMessageStartingWith("--metadata-url must be an http:// or https:// address");
    assertThat(AgentArgs.USAGE).contains("[--interruptions aws|gcp|none] [--metadata-url URL]");
  }

  @Test
  void nvidiaSmiDecidesOnlyWhenTheCommandLineDoesNot() throws Exception {
    List<String> base = List.of("--controller", "http://127.0.0.1:6820", "--token", "t", "--name", "n",
        "--work-dir", "/tmp");
    Supplier<Optional<GpuProbe.Gpus>> probe = () -> Optional.of(new GpuProbe.Gpus(4, "a100"));
    List<String> given = new ArrayList<>(base);
    given.addAll(List.of("--gpus", "0"));

    assertThat(AgentArgs.parse(given, Map.of(), probe).gpus()).isZero();
    AgentConfig probed = AgentArgs.parse(base, Map.of(), probe);
    assertThat(probed.gpus()).isEqualTo(4);
    assertThat(probed.gpuType()).isEqualTo("a100");
    assertThat(AgentArgs.parse(base, Map.of(), NO_GPUS).gpus()).isZero();
  }

  @Test
  void stepsAreNumberedFromZero() throws Exception {
    Path counter = StepCounter.location(dir.toString(), "42_3");
    assertThat(StepCounter.next(counter)).isZero();
    assertThat(StepCounter.next(counter)).isEqualTo(1);
    assertThat(StepCounter.next(counter)).isEqualTo(2);
    assertThat(counter).isEqualTo(dir.resolve("jobs/42_3/steps"));
  }

  @Test
  void commandsAreFoundOnTheTasksPath() throws Exception {
    assertThat(CommandLookup.find("sh", "/nonexistent:/bin", dir)).contains(Path.of("/bin/sh"));
    assertThat(CommandLookup.find("sh", "/nonexistent", dir)).isEmpty();
    Path local = Files.writeString(dir.resolve("run.sh"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(local, PosixFilePermissions.fromString("rwx------"));
    assertThat(CommandLookup.find("./run.sh", "", dir)).contains(dir.resolve("./run.sh"));
  }
}
