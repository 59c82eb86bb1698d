package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.squall.providers.aws.FakeEc2;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code squall.aws.agent-archive-url}: the user data of every launch fetches the agent archive
 * when the stock image lacks the agent; a URL the machines could not fetch from stops the start.
 * On a manual clock against {@link AwsCloud}.
 */
class AwsAgentArchiveWiringTest {
  private static final String ARCHIVE = "s3://squall-checkpoints/squall/squall-agent-0.1.0.tar.gz";

  @TempDir Path dir;

  @Test
  void theLaunchesUserDataFetchesTheArchiveBeforeStartingTheAgent() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.put("squall.ticks", "manual");
      s.put("squall.aws.agent-archive-url", ARCHIVE);
      try (Controllers.Running c = Controllers.start(s)) {
        new Http(c.url()).submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 --output=" + dir.resolve("out") + "\nhostname\n");
        ManualTime.of(c).allocateAndLaunch(Duration.ofMillis(200));
        List<FakeEc2.Request> calls = cloud.ec2.requests("RunInstances");
        assertThat(calls).hasSize(1);
        String userData = new String(Base64.getDecoder().decode(calls.get(0).get("UserData")), StandardCharsets.UTF_8);
        assertThat(userData).contains("if [ ! -x /opt/squall/bin/squall-agent ]; then\n")
            .contains("aws s3 cp --only-show-errors '" + ARCHIVE + "' \"$work/agent.tar.gz\"");
        assertThat(userData.indexOf("build-node-image.sh")).isLessThan(userData.indexOf("exec systemd-run"));
      }
    }
  }

  @Test
  void anArchiveUrlOfAnotherSchemeStopsTheStartNamingTheKey() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.put("squall.ticks", "manual");
      s.put("squall.aws.agent-archive-url", "ftp://example.com/agent.tar.gz");
      Throwable refused = catchThrowable(() -> Controllers.start(s).close());
      StringBuilder all = new StringBuilder();
      for (Throwable t = refused; t != null; t = t.getCause()) {
        all.append(t.getMessage()).append('\n');
      }
      assertThat(all.toString()).contains("squall.aws: agent archive URL 'ftp://example.com/agent.tar.gz' must start"
          + " with s3://, gs:// or https://");
    }
  }
}
