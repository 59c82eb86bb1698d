package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.money.PriceCaps;
import io.squall.core.provision.QosCapacity;
import java.util.List;
import org.junit.jupiter.api.Test;

/** QOS capacity and price caps ({@code squall.qos.*}, {@code max-*-usd-per-gpu-hour}); nonsense stops start-up, naming its key. */
class PurchaseRulesConfigTest {
  private static PartitionConfig gpu() {
    PartitionConfig p = new PartitionConfig("gpu");
    p.setNodes("node-[1-2]");
    p.setElastic(true);
    return p;
  }

  private static ClusterLayout layout(List<PartitionConfig> partitions, List<AccountConfig> accounts, QosConfig... qos) {
    return new ClusterLayout(partitions, accounts, List.of(), List.of(qos), new SquallConfig());
  }

  @Test
  void qosCapacityAndCapsOfQosAccountsAndPartitionsAreRead() {
    QosConfig spot = new QosConfig("spot");
    spot.setCapacity("spot-only");
    spot.setMaxSpotUsdPerGpuHour(3.0);
    AccountConfig ml = new AccountConfig("ml");
    ml.setMaxOnDemandUsdPerGpuHour(12.0);
    AccountConfig vision = new AccountConfig("vision");
    vision.setParent("ml");
    PartitionConfig p = gpu();
    p.setMaxSpotUsdPerGpuHour(4.0);
    ClusterLayout l = layout(List.of(p), List.of(ml, vision), spot);
    assertThat(l.qos()).containsKeys("normal", "spot");
    assertThat(l.purchaseRules().qosRule("spot").capacity()).isEqualTo(QosCapacity.SPOT_ONLY);
    assertThat(l.purchaseRules().accountCaps("vision")).isEqualTo(new PriceCaps(null, 12.0));
    assertThat(l.policies().get("gpu").caps()).isEqualTo(new PriceCaps(4.0, null));
  }

  @Test
  void nonsenseIsRefusedNamingTheKey() {
    QosConfig odd = new QosConfig("odd");
    odd.setCapacity("cheapest");
    assertThatThrownBy(() -> layout(List.of(gpu()), List.of(), odd)).hasMessage(
        "squall.qos.odd.capacity: 'cheapest' is not spot-only, spot-then-on-demand, on-demand or deadline");
    QosConfig free = new QosConfig("free");
    free.setMaxSpotUsdPerGpuHour(0.0);
    assertThatThrownBy(() -> layout(List.of(gpu()), List.of(), free)).hasMessage(
        "squall.qos.free.max-spot-usd-per-gpu-hour: a price cap is US dollars per GPU-hour above 0, not 0.0");
    AccountConfig ml = new AccountConfig("ml");
    ml.setMaxOnDemandUsdPerGpuHour(-2.0);
    assertThatThrownBy(() -> layout(List.of(gpu()), List.of(ml))).hasMessage(
        "squall.accounts.ml.max-on-demand-usd-per-gpu-hour: a price cap is US dollars per GPU-hour above 0, not -2.0");
    PartitionConfig p = gpu();
    p.setChangeoverTime(java.time.Duration.ofSeconds(-1));
    assertThatThrownBy(() -> layout(List.of(p), List.of())).hasMessage(
        "squall.partitions.gpu.changeover-time: must be 0 or more, not PT-1S");
  }
}
