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
 * What a launch's user data tells the machine, from configuration: where the controller is
 * ({@code squall.controller-url}, which a cloud provider cannot start without) and where to fetch
 * the agent when the stock image lacks it ({@code squall.aws.agent-archive-url}). On a manual
 * clock against {@link AwsCloud}.
 */
class AwsUserDataWiringTest {
  private static final String ARCHIVE = "s3://squall-checkpoints/squall/squall-agent-0.1.0.tar.gz";

  @TempDir Path dir;

  @Test
  void theLaunchesUserDataFetchesTheArchiveBeforeStartingTheAgent() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.put("squall.ticks", "manual");
      s.put("squall.aws.agent-archive-url", ARCHIVE);
      Path ca = java.nio.file.Files.writeString(dir.resolve("ca.pem"),
          "-----BEGIN CERTIFICATE-----\nMIIBthe-clusters-ca\n-----END CERTIFICATE-----\n");
      s.put("squall.tls.node-ca", ca.toString());
      try (Controllers.Running c = Controllers.start(s)) {
        new Http(c.url()).submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 --output=" + dir.resolve("out") + "\nhostname\n");
        ManualTime.of(c).allocateAndLaunch(Duration.ofMillis(200));
        List<FakeEc2.Request> calls = cloud.ec2.requests("RunInstances");
        assertThat(calls).hasSize(1);
        String userData = new String(Base64.getDecoder().decode(calls.get(0).get("UserData")), StandardCharsets.UTF_8);
        assertThat(userData).contains("--controller '" + AwsCloud.CONTROLLER_URL + "'")
            .contains("if [ ! -x /opt/squall/bin/squall-agent ]; then\n")
            .contains("aws s3 cp --only-show-errors '" + ARCHIVE + "' \"$work/agent.tar.gz\"");
        assertThat(userData.indexOf("build-node-image.sh")).isLessThan(userData.indexOf("exec systemd-run"));
        assertThat(userData).contains("MIIBthe-clusters-ca").contains(" --ca-file /run/squall-controller-ca.pem ");
      }
    }
  }

  @Test
  void withoutTheControllersAddressForTheNodesACloudControllerDoesNotStart() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.remove("squall.controller-url");
      assertThat(refusal(s)).contains("squall.controller-url is not set: with provider aws the nodes run on other"
          + " machines");
      s.put("squall.controller-url", "10.0.1.5:6820");
      assertThat(refusal(s)).contains("squall.controller-url: '10.0.1.5:6820' is not an address such as"
          + " http://10.0.1.5:6820");
    }
  }

  @Test
  void aNodeCaThatIsNoCertificateStopsTheStartNamingTheKey() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.put("squall.tls.node-ca", java.nio.file.Files.writeString(dir.resolve("key.pem"), "-----BEGIN PRIVATE KEY-----\n")
          .toString());
      assertThat(refusal(s)).contains("squall.tls.node-ca: " + dir.resolve("key.pem") + " holds no PEM certificate");
      s.put("squall.tls.node-ca", dir.resolve("missing.pem").toString());
      assertThat(refusal(s)).contains("squall.tls.node-ca: cannot read " + dir.resolve("missing.pem"));
    }
  }

  @Test
  void anArchiveUrlOfAnotherSchemeStopsTheStartNamingTheKey() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.put("squall.ticks", "manual");
      s.put("squall.aws.agent-archive-url", "ftp://example.com/agent.tar.gz");
      assertThat(refusal(s)).contains("squall.aws: agent archive URL 'ftp://example.com/agent.tar.gz' must start"
          + " with s3://, gs:// or https://");
    }
  }

  /** Every message of the failure to start with {@code settings}. */
  private static String refusal(Map<String, Object> settings) {
    Throwable refused = catchThrowable(() -> Controllers.start(settings).close());
    assertThat(refused).as("the controller started").isNotNull();
    StringBuilder all = new StringBuilder();
    for (Throwable t = refused; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }
}
