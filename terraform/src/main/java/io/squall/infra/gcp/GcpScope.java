package io.squall.infra.gcp;

import com.hashicorp.cdktf.TerraformProvider;
import com.hashicorp.cdktf.TerraformResource;
import com.hashicorp.cdktf.TerraformStack;
import io.squall.infra.config.ClusterConfig;
import io.squall.infra.tf.Elements;
import java.util.Map;

/** What every GCP part is made with: the stack, the provider and the configuration. */
final class GcpScope {
  final TerraformStack stack;
  final TerraformProvider provider;
  final ClusterConfig config;

  GcpScope(TerraformStack stack, TerraformProvider provider, ClusterConfig config) {
    this.stack = stack;
    this.provider = provider;
    this.config = config;
  }

  TerraformResource resource(String type, String name, Map<String, ?> attributes) {
    return Elements.resource(stack, provider, type, name, attributes);
  }

  /** A name that starts with the cluster's. */
  String named(String suffix) {
    return config.cluster() + "-" + suffix;
  }
}
