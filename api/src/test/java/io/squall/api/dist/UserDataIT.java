package io.squall.api.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alternative to a node image: user data that fetches the agent archive from the checkpoint
 * bucket at boot ({@code image/user-data.sh.tmpl}, filled in by {@code image/render-user-data.sh}).
 * It cannot run here (it installs into / and calls the clouds' CLIs): it is rendered, parsed by
 * bash and its values read back as the shell reads them.
 */
class UserDataIT {
  @Test
  void itRendersForS3AndGcsWithEveryValueQuotedForTheShell(@TempDir Path dir) throws Exception {
    Path agent = Unpacked.unpack("agent", dir);
    Path token = dir.resolve("token");
    // A node's own token, with what a shell would take for code in it.
    Files.writeString(token, "squall-node:gpu-1:it's a $ecret `token` & more|", StandardCharsets.UTF_8);
    Map<String, String> env = Unpacked.environment(dir);

    for (String[] cloud : new String[][] {{"s3://squall-checkpoints/dist/squall-agent-1.0.tar.gz", "aws", "aws s3 cp"},
        {"gs://squall-checkpoints/dist/squall-agent-1.0.tar.gz", "gcp", "gcloud storage cp"}}) {
      Unpacked.Result rendered = Unpacked.run(List.of(agent.resolve("image/render-user-data.sh").toString(), cloud[0],
          "http://10.0.0.2:6820", "gpu-1", token.toString(), cloud[1]), dir, env);
      assertThat(rendered.exit()).as(rendered.output()).isZero();
      assertThat(rendered.output()).startsWith("#!/bin/bash\n").doesNotContainPattern("@[A-Z_]+@").contains(cloud[2])
          .contains("build-node-image.sh").contains("systemctl enable --now squall-agent.service");
      Path script = dir.resolve("user-data-" + cloud[1] + ".sh");
      Files.writeString(script, rendered.output(), StandardCharsets.UTF_8);

      Unpacked.Result syntax = Unpacked.run(List.of("bash", "-n", script.toString()), dir, env);
      assertThat(syntax.exit()).as(syntax.output()).isZero();

      // The assignments alone, run: what the script's shell sees.
      String assignments = rendered.output().lines().filter(l -> l.matches("^[a-z_]+=.*")).limit(5)
          .reduce("", (a, l) -> a + l + "\n");
      Unpacked.Result values = Unpacked.run(List.of("bash", "-c", assignments
          + "printf '%s\\n' \"$archive_url\" \"$controller_url\" \"$node_name\" \"$agent_token\" \"$interruptions\""),
          dir, env);
      assertThat(values.output()).isEqualTo(cloud[0] + "\nhttp://10.0.0.2:6820\ngpu-1\nsquall-node:gpu-1:it's a $ecret `token` & more|\n"
          + cloud[1] + "\n");
    }
  }

  @Test
  void itRefusesAnArchiveOutsideABucket(@TempDir Path dir) throws Exception {
    Path agent = Unpacked.unpack("agent", dir);
    Path token = dir.resolve("token");
    Files.writeString(token, "squall-node:gpu-1:t", StandardCharsets.UTF_8);

    Unpacked.Result r = Unpacked.run(List.of(agent.resolve("image/render-user-data.sh").toString(),
        "https://example.com/agent.tar.gz", "http://10.0.0.2:6820", "gpu-1", token.toString(), "aws"), dir,
        Unpacked.environment(dir));

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.output()).contains("must be s3://... or gs://...");
  }

  @Test
  void itRefusesATokenThatIsNotTheNodesOwn(@TempDir Path dir) throws Exception {
    Path agent = Unpacked.unpack("agent", dir);
    for (String given : new String[] {"the-cluster-secret", "squall-node:gpu-2:mac", "squall-node:gpu-1:"}) {
      Path token = dir.resolve("token");
      Files.writeString(token, given, StandardCharsets.UTF_8);
      Unpacked.Result r = Unpacked.run(List.of(agent.resolve("image/render-user-data.sh").toString(),
          "s3://squall-checkpoints/dist/squall-agent-1.0.tar.gz", "http://10.0.0.2:6820", "gpu-1", token.toString(),
          "aws"), dir, Unpacked.environment(dir));
      assertThat(r.exit()).as(given).isEqualTo(2);
      assertThat(r.output()).as(given).contains("does not hold node gpu-1's own token")
          .contains("squall node-token gpu-1").doesNotContain("#!/bin/bash");
    }
  }
}
