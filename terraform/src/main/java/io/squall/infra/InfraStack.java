package io.squall.infra;

import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.LocalBackend;
import com.hashicorp.cdktf.LocalBackendConfig;
import com.hashicorp.cdktf.TerraformStack;
import io.squall.infra.aws.AwsInfrastructure;
import io.squall.infra.config.ClusterConfig;
import io.squall.infra.gcp.GcpInfrastructure;

/** The one Terraform stack of a cluster: its cloud's infrastructure and a local state file beside the JSON. */
public final class InfraStack {
  /** The stack's name: CDKTF writes it under {@code stacks/squall/}. */
  public static final String NAME = "squall";

  private InfraStack() {}

  public static TerraformStack create(App app, ClusterConfig config) {
    TerraformStack stack = new TerraformStack(app, NAME);
    // Relative, so the state lands where terraform runs (the --out directory), not where we synthesized.
    new LocalBackend(stack, LocalBackendConfig.builder().path("terraform.tfstate").build());
    switch (config.cloud()) {
      case AWS -> AwsInfrastructure.addTo(stack, config);
      case GCP -> GcpInfrastructure.addTo(stack, config);
    }
    return stack;
  }
}
