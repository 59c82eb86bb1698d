package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.Offering;
import io.squall.providers.aws.AwsProvider;
import io.squall.providers.aws.AwsSettings;
import io.squall.providers.aws.FakeEc2;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The controller dies between recording a launch intent and learning the launch's outcome; a new
 * controller starts from what was durable at that moment and must leave exactly one instance per
 * node, and none unaccounted.
 *
 * <p>The cloud is {@link FakeEc2} (EC2's Query/XML wire format), reached through the service's
 * own {@code squall.provider: aws} wiring, so it outlives the controllers as a cloud does. The
 * crash is the database as it was while the RunInstances call was in flight: an H2 online backup
 * taken then, restored for the second controller.
 */
class ElasticCrashRecoveryTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final String TYPE = AwsCloud.TYPE;
  private static final String ZONE = AwsCloud.ZONE;

  @TempDir Path dir;
  private AwsCloud cloud;
  private FakeEc2 ec2;

  @BeforeEach
  void cloud() throws Exception {
    cloud = new AwsCloud();
    ec2 = cloud.ec2;
  }

  @AfterEach
  void tearDown() {
    cloud.close();
  }

  private Map<String, Object> settings(Path dataDir) {
    return cloud.settings(dataDir, "cloud-[1-8]");
  }

  @Test
  void aLaunchTheCloudCarriedOutIsAdoptedNotRepeatedAndOrphansAreTerminated() throws Exception {
    Path snapshot = dir.resolve("snapshot.zip");
    FakeEc2.Hold hold = ec2.holdNext("RunInstances");
    Path data = dir.resolve("data1");
    try (Controllers.Running c = Controllers.start(settings(data))) {
      Http h = new Http(c.url());
      submitGang(h);
      hold.awaitArrival(LONG);
      assertPendingIntent(h);
      backup(data, snapshot); // what a crash at this instant leaves on disk
      // EC2 carries the call out; the dying controller's record of it is not in the snapshot.
      hold.proceed();
      Poll.until("EC2 to make the gang", LONG, () -> ec2.aliveIds().size() == 4 ? true : null);
    }
    // An instance of this cluster that no record knows of (a launch whose intent was never stored).
    String stray = strayInstance("cloud-7");

    Path data2 = dir.resolve("data2");
    restore(snapshot, data2);
    try (Controllers.Running c = Controllers.start(settings(data2))) {
      Http h = new Http(c.url());
      JsonNode launched = awaitLaunched(h, "the intent to be adopted");
      assertThat(launched.get("detail").asText()).contains("adopted after a restart");
      Poll.until("the orphan to be terminated", LONG, () -> !ec2.aliveIds().contains(stray) ? true : null);
      assertThat(ec2.state(stray)).isIn("shutting-down", "terminated");
      assertNoDuplicateAndNoOrphan(h);
      // Adopted, not launched again: the only RunInstances calls are the crashed one and the stray's.
      assertThat(ec2.requests("RunInstances")).hasSize(2);
    }
  }

  @Test
  void aLaunchTheCloudNeverSawIsRetriedOnceWithItsToken() throws Exception {
    Path snapshot = dir.resolve("snapshot.zip");
    FakeEc2.Hold hold = ec2.holdNext("RunInstances");
    Path data = dir.resolve("data1");
    String token;
    try (Controllers.Running c = Controllers.start(settings(data))) {
      Http h = new Http(c.url());
      submitGang(h);
      hold.awaitArrival(LONG);
      token = assertPendingIntent(h);
      backup(data, snapshot);
      // The call never reached EC2: nothing is made (the dying controller's answer is not recorded).
      hold.fail(403, "UnauthorizedOperation", "You are not authorized to perform this operation.");
    }
    assertThat(ec2.aliveIds()).isEmpty();

    Path data2 = dir.resolve("data2");
    restore(snapshot, data2);
    try (Controllers.Running c = Controllers.start(settings(data2))) {
      Http h = new Http(c.url());
      JsonNode launched = awaitLaunched(h, "the intent to be retried");
      assertThat(launched.get("token").asText()).isEqualTo(token);
      List<FakeEc2.Request> calls = ec2.requests("RunInstances");
      assertThat(calls).hasSize(2);
      assertThat(calls.get(1).get("ClientToken")).isEqualTo(calls.get(0).get("ClientToken"));
      // Each node's user data carries its own agent token, never the cluster's secret.
      String userData = new String(java.util.Base64.getDecoder().decode(calls.get(1).get("UserData")),
          java.nio.charset.StandardCharsets.UTF_8);
      assertThat(userData).contains("printf '%s' 'squall-node:cloud-1:", "printf '%s' 'squall-node:cloud-4:")
          .doesNotContain("change-me-agent-token");
      assertNoDuplicateAndNoOrphan(h);
    }
  }

  /** The first (only) launch intent once it is LAUNCHED. */
  private static JsonNode awaitLaunched(Http h, String what) {
    return Poll.until(what, LONG, () -> {
      JsonNode l = h.get("admin-token", "/v1/launches").json().get("launches").get(0);
      return l.get("state").asText().equals("LAUNCHED") ? l : null;
    });
  }

  private static void submitGang(Http h) {
    h.submit("#!/bin/bash\n#SBATCH -N 4 --gres=gpu:8\nsrun hostname\n");
  }

  private static String assertPendingIntent(Http h) {
    JsonNode launches = h.get("admin-token", "/v1/launches").json().get("launches");
    assertThat(launches).hasSize(1);
    assertThat(launches.get(0).get("state").asText()).isEqualTo("PENDING");
    assertThat(launches.get(0).get("nodes").asText()).isEqualTo("cloud-[1-4]");
    return launches.get(0).get("token").asText();
  }

  /** Four live instances, one per node of the gang, each recorded against its node. */
  private void assertNoDuplicateAndNoOrphan(Http h) {
    List<String> alive = ec2.aliveIds();
    assertThat(alive).hasSize(4);
    TreeSet<String> nodes = new TreeSet<>();
    alive.forEach(id -> nodes.add(ec2.tags(id).get("squall:node")));
    assertThat(nodes).containsExactly("cloud-1", "cloud-2", "cloud-3", "cloud-4");
    List<String> recorded = new ArrayList<>();
    h.get("admin-token", "/v1/instances").json().get("instances").forEach(i -> recorded.add(i.get("instance_id")
        .asText()));
    assertThat(recorded).containsExactlyInAnyOrderElementsOf(alive);
  }

  /** Launches an instance tagged for this cluster behind the controllers' backs. */
  private String strayInstance(String node) {
    AwsSettings s = AwsSettings.builder("us-east-1").endpoint(ec2.endpoint())
        .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDFAKE", "fake-secret")))
        .subnet(ZONE, "subnet-0aaaaaaaaaaaaaaa1").imageId("ami-0squall0000000001").build();
    try (AwsProvider aws = new AwsProvider(s)) {
      Node template = new Node(node, 8, "h100", 192, 2_048_000, java.util.Set.of(), null, NodeState.CLOUD);
      Offering od = new Offering(TYPE, ZONE, CapacityType.ON_DEMAND, 98.32, Availability.AVAILABLE);
      return aws.launch(new LaunchRequest("squall", "gpu", List.of(new NodeLaunch(template, "http://x", "t")), 1, od,
          null, Map.of(), "stray-launch")).get(0).id();
    }
  }

  private static void backup(Path dataDir, Path zip) throws Exception {
    String url = "jdbc:h2:file:" + dataDir.toAbsolutePath() + "/db/squall;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;"
        + "DEFAULT_NULL_ORDERING=HIGH;WRITE_DELAY=0";
    try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
      st.execute("BACKUP TO '" + zip.toAbsolutePath() + "'");
    }
  }

  private static void restore(Path zip, Path dataDir) throws Exception {
    Path db = Files.createDirectories(dataDir.resolve("db"));
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        try (OutputStream out = Files.newOutputStream(db.resolve(Path.of(e.getName()).getFileName()))) {
          in.transferTo(out);
        }
      }
    }
  }
}
