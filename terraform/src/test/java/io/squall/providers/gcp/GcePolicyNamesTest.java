package io.squall.providers.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.infra.gcp.GcePolicyNames;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Infra names the compact placement policies it makes as the GCP provider names the ones it
 * looks for: in this package, the provider's own (package-private) naming answers.
 */
class GcePolicyNamesTest {
  @Test
  void infraAndTheProviderNameEveryPolicyAlike() {
    for (List<String> cluster : List.of(List.of("squall", "squall-h100-pg1-us-central1-a"),
        List.of("prod", "prod-gpu-us-east4-b"),
        List.of("Team.A", "Team.A-gpu_x-pg12-us-central1-c"),
        List.of("a-very-long-cluster", "a-very-long-cluster-a-partition-with-a-long-name-pg3-europe-west4-a"))) {
      assertThat(GcePolicyNames.of(cluster.get(0), cluster.get(1)))
          .isEqualTo(PlacementPolicies.name(cluster.get(0), cluster.get(1)));
    }
  }
}
