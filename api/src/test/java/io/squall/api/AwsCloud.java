package io.squall.api;

import io.squall.providers.aws.FakeEc2;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A pretend AWS for service tests: a {@link FakeEc2} selling {@value #TYPE} in {@value #ZONE},
 * the SDK's default credential chain satisfied by system properties (as production finds its
 * credentials), and the settings of a controller whose elastic partition {@code gpu} launches
 * on-demand instances there.
 */
final class AwsCloud implements AutoCloseable {
  static final String TYPE = "p5.48xlarge";
  static final String ZONE = "us-east-1a";
  /** Where the launched nodes are told the controller is. */
  static final String CONTROLLER_URL = "http://10.0.1.5:6820";
  final FakeEc2 ec2;

  AwsCloud() throws IOException {
    ec2 = new FakeEc2().offer(TYPE, ZONE);
    System.setProperty("aws.accessKeyId", "AKIDFAKE");
    System.setProperty("aws.secretAccessKey", "fake-secret");
  }

  /** A controller on {@code dataDir} with an elastic partition of {@code nodes} on this cloud. */
  Map<String, Object> settings(Path dataDir, String nodes) {
    Map<String, Object> s = Controllers.settings(dataDir, null, "aws");
    s.put("squall.partitions.gpu.nodes", nodes);
    s.put("squall.partitions.gpu.placement-groups", 2);
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.partitions.gpu.instance-types", List.of(TYPE));
    s.put("squall.partitions.gpu.spot", "on-demand");
    s.put("squall.partitions.gpu.batch-window", "200ms");
    s.put("squall.aws.region", "us-east-1");
    s.put("squall.aws.endpoint", ec2.endpoint().toString());
    s.put("squall.aws.subnets", Map.of(ZONE, "subnet-0aaaaaaaaaaaaaaa1"));
    s.put("squall.aws.image-id", "ami-0squall0000000001");
    s.put("squall.controller-url", CONTROLLER_URL); // the machines the fake makes never boot
    return s;
  }

  @Override
  public void close() {
    ec2.close();
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
  }
}
