package io.squall.core.provision;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.Offering;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReconciliationTest {
  private static final Offering SPOT = new Offering("p5.48xlarge", "us-east-1a", CapacityType.SPOT, 30, Availability.AVAILABLE);

  private static Instance instance(String id, String node, String token) {
    return new Instance(id, node, "c1", "gpu", "pg1", token, SPOT, InstanceState.RUNNING);
  }

  @Test
  void knownAndIntendedInstancesAreAdoptedOrphansTerminatedLostIntentsRetried() {
    List<Instance> listed = List.of(
        instance("i-1", "gpu-1", "t1"),     // recorded
        instance("i-2", "gpu-2", "t2"),     // launched, but the controller died before recording it
        instance("i-3", "gpu-9", "t-old")); // nobody knows it
    Reconciliation.Result r = Reconciliation.reconcile(listed, Map.of("i-1", "gpu-1"),
        Map.of("t2", List.of("gpu-2"), "t3", List.of("gpu-3", "gpu-4"), "t4", List.of("gpu-5")),
        Set.of("gpu-1", "gpu-2", "gpu-3", "gpu-4"));
    assertThat(r.adopt()).extracting(Instance::id).containsExactly("i-1", "i-2");
    assertThat(r.orphans()).extracting(Instance::id).containsExactly("i-3");
    assertThat(r.retry()).containsExactly("t3");
    assertThat(r.drop()).containsExactly("t4");
  }

  @Test
  void aRecordedInstanceWhoseNodeWasPoweredDownIsTerminated() {
    Reconciliation.Result r = Reconciliation.reconcile(List.of(instance("i-1", "gpu-1", "t1")), Map.of("i-1", "gpu-1"),
        Map.of(), Set.of());
    assertThat(r.adopt()).isEmpty();
    assertThat(r.orphans()).extracting(Instance::id).containsExactly("i-1");
  }

  @Test
  void anInstanceOfAnIntentWhoseNodeNoLongerWaitsIsAnOrphan() {
    Reconciliation.Result r = Reconciliation.reconcile(List.of(instance("i-2", "gpu-2", "t2")), Map.of(),
        Map.of("t2", List.of("gpu-2")), Set.of());
    assertThat(r.orphans()).extracting(Instance::id).containsExactly("i-2");
    assertThat(r.drop()).containsExactly("t2");
  }
}
