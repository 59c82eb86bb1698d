package io.squall.infra.aws;

import com.hashicorp.cdktf.TerraformResource;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.infra.tf.Elements;
import io.squall.spot.events.Ec2Events;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The SQS queue the controller reads EC2's interruption events from ({@code squall.aws.interruption-queue-url}),
 * and one EventBridge rule per event kind it acts on ({@link Ec2Events}: spot interruption
 * warnings, rebalance recommendations, state changes), each delivering to the queue. The queue
 * policy lets EventBridge send, and only from these rules.
 */
final class AwsInterruptionEvents {
  private static final ObjectMapper JSON = new ObjectMapper();

  final String queueArn;
  final String queueUrl;

  AwsInterruptionEvents(AwsScope s) {
    // A notice is worth minutes: an hour's retention is plenty, and a stale one is dropped.
    TerraformResource queue = s.resource("aws_sqs_queue", "interruptions", Map.of(
        "name", s.config.aws().queueName(), "message_retention_seconds", 3600, "sqs_managed_sse_enabled", true));
    queueArn = Elements.ref(queue, "arn");
    queueUrl = Elements.ref(queue, "url");
    Map<String, String> kinds = Map.of(
        "spot_interruption", Ec2Events.SPOT_INTERRUPTION_WARNING,
        "rebalance", Ec2Events.REBALANCE_RECOMMENDATION,
        "state_change", Ec2Events.STATE_CHANGE);
    List<String> rules = new ArrayList<>();
    for (String kind : List.of("spot_interruption", "rebalance", "state_change")) {
      TerraformResource rule = s.resource("aws_cloudwatch_event_rule", kind, Map.of(
          "name", s.named(kind.replace('_', '-')),
          "description", "Squall: " + kinds.get(kind) + " to the controller's queue",
          "event_pattern", pattern(kinds.get(kind))));
      s.resource("aws_cloudwatch_event_target", kind, Map.of("rule", Elements.ref(rule, "name"),
          "arn", queueArn));
      rules.add(Elements.ref(rule, "arn"));
    }
    String policy = Statement.document(s, "interruption_queue", List.of(
        Statement.allow("EventBridgeSends", List.of("sqs:SendMessage"), List.of(queueArn))
            .forService("events.amazonaws.com")
            .when("ArnEquals", "aws:SourceArn", rules.toArray(String[]::new))));
    s.resource("aws_sqs_queue_policy", "interruptions", Map.of("queue_url", queueUrl, "policy", policy));
  }

  private static String pattern(String detailType) {
    try {
      return JSON.writeValueAsString(Map.of("source", List.of(Ec2Events.EC2_SOURCE),
          "detail-type", List.of(detailType)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of strings is always JSON", e);
    }
  }
}
