package io.squall.infra.aws;

import com.hashicorp.cdktf.TerraformDataSource;
import com.hashicorp.cdktf.TerraformProvider;
import com.hashicorp.cdktf.TerraformResource;
import com.hashicorp.cdktf.TerraformStack;
import io.squall.infra.config.ClusterConfig;
import io.squall.infra.tf.Elements;
import java.util.Map;

/**
 * What every AWS part is made with: the stack, the provider, the configuration, and the account
 * and partition the ARNs are built from.
 */
final class AwsScope {
  final TerraformStack stack;
  final TerraformProvider provider;
  final ClusterConfig config;
  private final TerraformDataSource account;
  private final TerraformDataSource partition;

  AwsScope(TerraformStack stack, TerraformProvider provider, ClusterConfig config) {
    this.stack = stack;
    this.provider = provider;
    this.config = config;
    this.account = data("aws_caller_identity", "current", Map.of());
    this.partition = data("aws_partition", "current", Map.of());
  }

  TerraformResource resource(String type, String name, Map<String, ?> attributes) {
    return Elements.resource(stack, provider, type, name, attributes);
  }

  TerraformDataSource data(String type, String name, Map<String, ?> attributes) {
    return Elements.data(stack, provider, type, name, attributes);
  }

  /** An AMI's ARN: images belong to no account in their ARN. */
  String image(String imageId) {
    return "arn:" + Elements.ref(partition, "partition") + ":ec2:" + config.aws().region() + "::image/" + imageId;
  }

  /** {@code arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE} in the configured region. */
  String regional(String service, String resource) {
    return "arn:" + Elements.ref(partition, "partition") + ":" + service + ":" + config.aws().region() + ":"
        + Elements.ref(account, "account_id") + ":" + resource;
  }

  /** A name that starts with the cluster's, so policies can scope by prefix. */
  String named(String suffix) {
    return config.cluster() + "-" + suffix;
  }
}
