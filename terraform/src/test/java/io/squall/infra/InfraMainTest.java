package io.squall.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code squall infra synth}: one line and exit status 2 for bad input, nothing written; the JSON otherwise. */
class InfraMainTest {
  @TempDir
  Path dir;

  private record Result(int status, String out, String err) {}

  private Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = InfraMain.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Result synth(String provider, Path config) {
    return run("synth", "--provider", provider, "--config", config.toString(), "--out", dir.resolve("out").toString());
  }

  private void assertRefused(Result r, String... mentions) throws IOException {
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith("squall infra: ").contains(mentions);
    assertThat(r.err().strip()).doesNotContain("\n");
    assertThat(r.out()).isEmpty();
    assertThat(dir.resolve("out")).doesNotExist();
    try (Stream<Path> left = Files.list(dir)) {
      // No scratch directory is left beside --out either.
      assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".squall-infra-"));
    }
  }

  @Test
  void writesCdkTfJsonForEachExample() throws IOException {
    for (String cloud : List.of("aws", "gcp")) {
      Result r = synth(cloud, Synthesized.EXAMPLES.resolve(cloud + ".yml"));
      assertThat(r.status()).as(r.err()).isZero();
      Path json = dir.resolve("out").resolve("cdk.tf.json");
      assertThat(r.out()).contains(json.toAbsolutePath().toString());
      assertThat(Files.readString(json)).contains("\"required_providers\"", "hashicorp/" + (cloud.equals("aws") ? "aws"
          : "google"), "\"path\": \"terraform.tfstate\"");
    }
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly("out");
    }
    try (Stream<Path> written = Files.list(dir.resolve("out"))) {
      assertThat(written.map(p -> p.getFileName().toString())).containsExactly("cdk.tf.json");
    }
  }

  @Test
  void anUnknownProviderIsRefused() throws IOException {
    assertRefused(synth("azure", Synthesized.EXAMPLES.resolve("aws.yml")), "--provider", "azure", "aws and gcp");
  }

  @Test
  void aMissingFileIsRefusedByName() throws IOException {
    Path missing = dir.resolve("nope.yml");
    assertRefused(synth("aws", missing), missing.toString(), "no such file");
  }

  @Test
  void malformedYamlIsRefusedWithTheFileName() throws IOException {
    Path bad = Files.writeString(dir.resolve("bad.yml"), "squall:\n  provider: aws\n  partitions: [unclosed\n");
    assertRefused(synth("aws", bad), bad.toString(), "not valid YAML");
  }

  @Test
  void aPartitionWithoutInstanceTypesIsRefusedNamingTheKey() throws IOException {
    Path config = Synthesized.variant(dir, "aws.yml", Map.of("      instance-types: [p5en.48xlarge]\n", ""));
    assertRefused(synth("aws", config), config.toString(), "squall.partitions.h200.instance-types", "missing");
  }

  @Test
  void aProviderOtherThanTheFilesIsRefused() throws IOException {
    assertRefused(synth("gcp", Synthesized.EXAMPLES.resolve("aws.yml")), "squall.provider", "'aws'", "--provider gcp");
  }

  @Test
  void aMissingNodeImageIsRefusedNamingTheKey() throws IOException {
    Path config = Synthesized.variant(dir, "aws.yml", Map.of(
        "    image-id: ami-0123456789abcdef0          # the node image: the agent at /opt/squall/bin/squall-agent\n", ""));
    assertRefused(synth("aws", config), "squall.aws.image-id", "missing");
  }

  @Test
  void aNegativeOrNonNumericEfaCountIsRefusedNamingTheKey() throws IOException {
    for (String bad : List.of("-1", "lots")) {
      Path config = Synthesized.variant(dir, "aws.yml", Map.of("  aws:\n",
          "  aws:\n    efa-interfaces: {p5.48xlarge: " + bad + "}\n"));
      assertRefused(synth("aws", config), "squall.aws.efa-interfaces.p5.48xlarge", "'" + bad + "'",
          "0 (no EFA) or more");
    }
  }

  @Test
  void aPlaceholderWithoutDefaultWhereInfraNeedsTheValueIsRefused() throws IOException {
    Path config = Synthesized.variant(dir, "gcp.yml", Map.of("project: my-project", "project: ${GCP_PROJECT}"));
    assertRefused(synth("gcp", config), "squall.gcp.project", "GCP_PROJECT");
  }

  @Test
  void missingArgumentsShowTheUsage() throws IOException {
    assertRefused(run("synth", "--provider", "aws"), "--config is missing", InfraMain.USAGE);
    assertRefused(run("plan"), InfraMain.USAGE);
    assertRefused(run("synth", "--provider"), "--provider needs a value");
  }

  @Test
  void anOutThatIsAFileIsRefused() throws IOException {
    Path file = Files.writeString(dir.resolve("out"), "not a directory");
    Result r = synth("aws", Synthesized.EXAMPLES.resolve("aws.yml"));
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--out", "is not a directory");
    assertThat(Files.readString(file)).isEqualTo("not a directory");
  }
}
