package io.squall.infra.tf;

import com.hashicorp.cdktf.TerraformProvider;
import com.hashicorp.cdktf.TerraformProviderConfig;
import com.hashicorp.cdktf.TerraformProviderGeneratorMetadata;
import java.util.Map;
import software.constructs.Construct;

/**
 * A Terraform provider block and its {@code required_providers} entry, from CDKTF's generic
 * provider class: name, source, version constraint and raw settings.
 */
public final class GenericProvider extends TerraformProvider {
  public GenericProvider(Construct scope, String name, String source, String version, Map<String, ?> settings) {
    super(scope, name, TerraformProviderConfig.builder()
        .terraformResourceType(name)
        .terraformProviderSource(source)
        .terraformGeneratorMetadata(TerraformProviderGeneratorMetadata.builder()
            .providerName(name).providerVersionConstraint(version).build())
        .build());
    settings.forEach(this::addOverride);
  }
}
