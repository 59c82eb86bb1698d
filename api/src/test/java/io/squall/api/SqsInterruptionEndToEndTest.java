package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.providers.aws.FakeEc2;
import io.squall.providers.aws.SqsInterruptionSource;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The EventBridge → SQS path through the service: with {@code squall.provider: aws} (against
 * {@link FakeEc2}) and {@code squall.aws.interruption-queue-url} (an ElasticMQ queue in this
 * JVM), AWS's own "EC2 Spot Instance Interruption Warning" event for one of the cluster's
 * instances drains its node, requeues the job holding it and gives the machine up; the message
 * is deleted.
 */
class SqsInterruptionEndToEndTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  @TempDir Path dir;
  private AwsCloud cloud;
  private FakeEc2 ec2;
  private SQSRestServer sqsServer;
  private SqsClient sqs;
  private String queueUrl;
  private URI sqsEndpoint;

  @BeforeEach
  void cloud() throws Exception {
    cloud = new AwsCloud();
    ec2 = cloud.ec2;
    sqsServer = SQSRestServerBuilder.withInterface("127.0.0.1").withDynamicPort().start();
    sqsEndpoint = URI.create("http://127.0.0.1:" + sqsServer.waitUntilStarted().localAddress().getPort());
    sqs = SqsInterruptionSource.client("us-east-1", sqsEndpoint,
        StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDFAKE", "fake-secret")));
    queueUrl = sqs.createQueue(r -> r.queueName("squall-ec2-events")).queueUrl();
  }

  @AfterEach
  void tearDown() {
    sqs.close();
    sqsServer.stopAndWait();
    cloud.close();
  }

  private Map<String, Object> settings() {
    Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
    s.put("squall.aws.interruption-queue-url", queueUrl);
    s.put("squall.aws.sqs-endpoint", sqsEndpoint.toString());
    s.put("squall.ticks", "manual"); // the drain and the fleet decide only when the test ticks
    return s;
  }

  /** AWS's sample event (User Guide; kept in spot-handler's test resources) for {@code instanceId}. */
  private static String interruptionWarning(String instanceId) {
    try (InputStream in = SqsInterruptionEndToEndTest.class.getResourceAsStream(
        "/io/squall/spot/events/spot-instance-interruption-warning.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("i-1234567890abcdef0", instanceId);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void anEc2InterruptionWarningFromTheQueueDrainsTheNodeAndRequeuesItsJob() throws Exception {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long id = h.submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8\nsleep 1\n");
      // No agent boots on FakeEc2's machines: the job holds its launched node, CONFIGURING.
      JsonNode instance = time.until("the node's instance", LONG, () -> {
        JsonNode all = h.get("admin-token", "/v1/instances").json().get("instances");
        return all.size() == 1 ? all.get(0) : null;
      });
      String instanceId = instance.get("instance_id").asText();
      String node = instance.get("node").asText();

      sqs.sendMessage(r -> r.queueUrl(queueUrl).messageBody(interruptionWarning(instanceId)));

      JsonNode hit = time.until("the interruption handled", LONG, () -> {
        JsonNode rows = h.get("admin-token", "/v1/interruptions").json().get("interruptions");
        return rows.size() == 1 && !rows.get(0).get("outcome").isNull() ? rows.get(0) : null;
      });
      assertThat(hit.get("source").asText()).isEqualTo("AWS_EVENTS");
      assertThat(hit.get("instance_id").asText()).isEqualTo(instanceId);
      assertThat(hit.get("node").asText()).isEqualTo(node);
      assertThat(hit.get("job").asText()).isEqualTo(Long.toString(id));
      JsonNode job = h.get("alice-token", "/v1/jobs/" + id).json();
      assertThat(job.get("restart_count").asInt()).isEqualTo(1);
      List<String> states = job.get("events").findValuesAsText("state");
      assertThat(states).containsSubsequence("CONFIGURING", "PREEMPTED", "PENDING");
      // The warning's deadline (its time + 2 min) is long past: the machine is given up at once.
      time.until("the interrupted instance terminated", LONG, () -> !ec2.aliveIds().contains(instanceId) ? true : null);
      // Handled messages are deleted.
      time.until("the queue empty", LONG, () -> {
        Map<QueueAttributeName, String> a = sqs.getQueueAttributes(r -> r.queueUrl(queueUrl).attributeNames(
            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
            .attributes();
        return a.values().stream().allMatch("0"::equals) ? true : null;
      });
    }
  }
}
