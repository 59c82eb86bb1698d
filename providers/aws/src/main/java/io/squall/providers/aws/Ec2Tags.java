package io.squall.providers.aws;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.Offering;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import software.amazon.awssdk.services.ec2.model.InstanceLifecycleType;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * The Squall fields an EC2 instance carries as tags, both ways: the tags a launch puts on its
 * instances, and an {@link Instance} read back from an EC2 instance and its tags.
 */
final class Ec2Tags {
  private Ec2Tags() {}

  static final String CLUSTER = "squall:cluster";
  static final String PARTITION = "squall:partition";
  static final String LAUNCH = "squall:launch";
  static final String PLACEMENT_GROUP = "squall:placement-group";
  static final String NODE = "squall:node";
  static final String NAME = "Name";

  /**
   * The tags every instance (and volume) of a launch gets when it starts: the request's own tags,
   * then the Squall fields (which win over request tags of the same key), and a provisional
   * {@code Name} until each instance is named after its node.
   */
  static List<Tag> launchTags(LaunchRequest request) {
    Map<String, String> tags = new LinkedHashMap<>(request.tags());
    tags.put(CLUSTER, request.cluster());
    if (request.partition() != null) {
      tags.put(PARTITION, request.partition());
    }
    tags.put(LAUNCH, request.idempotencyToken());
    if (request.placementGroup() != null) {
      tags.put(PLACEMENT_GROUP, request.placementGroup());
    }
    tags.putIfAbsent(NAME, "squall-" + request.cluster());
    return toTags(tags);
  }

  /** The tags that name one instance after its node. */
  static List<Tag> nodeTags(String nodeName) {
    return List.of(tag(NODE, nodeName), tag(NAME, nodeName));
  }

  static List<Tag> toTags(Map<String, String> tags) {
    List<Tag> out = new ArrayList<>(tags.size());
    tags.forEach((k, v) -> out.add(tag(k, v)));
    return out;
  }

  static Tag tag(String key, String value) {
    return Tag.builder().key(key).value(value).build();
  }

  static Map<String, String> asMap(List<Tag> tags) {
    Map<String, String> map = new HashMap<>();
    if (tags != null) {
      for (Tag t : tags) {
        map.put(t.key(), t.value());
      }
    }
    return map;
  }

  /**
   * An EC2 instance as Squall sees it: node, cluster, partition, placement group and launch from
   * its tags; offering from its type, zone and lifecycle, priced by {@code onDemandPrice} for
   * on-demand and 0 (unknown) for spot.
   */
  static Instance toInstance(software.amazon.awssdk.services.ec2.model.Instance ec2,
      ToDoubleFunction<String> onDemandPrice) {
    Map<String, String> tags = asMap(ec2.tags());
    String type = ec2.instanceTypeAsString();
    String zone = ec2.placement() == null ? "" : nullToEmpty(ec2.placement().availabilityZone());
    CapacityType capacity = ec2.instanceLifecycle() == InstanceLifecycleType.SPOT
        ? CapacityType.SPOT : CapacityType.ON_DEMAND;
    double price = capacity == CapacityType.ON_DEMAND && type != null ? onDemandPrice.applyAsDouble(type) : 0;
    Offering offering = new Offering(nullToEmpty(type), zone, capacity, price, Availability.AVAILABLE);
    return new Instance(ec2.instanceId(), tags.get(NODE), tags.get(CLUSTER), tags.get(PARTITION),
        tags.get(PLACEMENT_GROUP), tags.get(LAUNCH), offering, state(ec2));
  }

  /** EC2's six states folded into Squall's four. */
  static InstanceState state(software.amazon.awssdk.services.ec2.model.Instance ec2) {
    InstanceStateName name = ec2.state() == null ? null : ec2.state().name();
    if (name == null) {
      return InstanceState.PENDING;
    }
    switch (name) {
      case RUNNING:
        return InstanceState.RUNNING;
      case STOPPING:
      case STOPPED:
      case SHUTTING_DOWN:
        return InstanceState.STOPPING;
      case TERMINATED:
        return InstanceState.TERMINATED;
      case PENDING:
      default:
        return InstanceState.PENDING;
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
