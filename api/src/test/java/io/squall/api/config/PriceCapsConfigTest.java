package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.money.PriceCaps;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A price cap below the list price of every offering it applies to stops start-up, naming its
 * key, the cap and the cheapest list price; one that some offering meets, or that meets prices
 * only known at run time (AWS spot), is accepted.
 */
class PriceCapsConfigTest {
  private static PartitionConfig elastic(String name, String... instanceTypes) {
    PartitionConfig p = new PartitionConfig(name);
    p.setNodes(name + "-[1-2]");
    p.setElastic(true);
    p.setInstanceTypes(List.of(instanceTypes));
    return p;
  }

  private static SquallConfig provider(String name) {
    SquallConfig config = new SquallConfig();
    config.setProvider(name);
    return config;
  }

  private static ClusterLayout layout(String provider, List<PartitionConfig> partitions, List<AccountConfig> accounts,
      List<QosConfig> qos) {
    return layout(provider, new AwsProviderConfig(), new LocalProviderConfig(), partitions, accounts, qos);
  }

  private static ClusterLayout layout(String provider, AwsProviderConfig aws, LocalProviderConfig local,
      List<PartitionConfig> partitions, List<AccountConfig> accounts, List<QosConfig> qos) {
    SquallConfig config = provider(provider);
    return new ClusterLayout(partitions, accounts, List.of(), qos, config,
        new ListPrices(config, local, aws, new GcpProviderConfig()));
  }

  @Test
  void aPartitionsOnDemandCapBelowTheBuiltInAwsPriceIsRefusedNamingTheKey() {
    PartitionConfig p = elastic("gpu", "p5.48xlarge"); // built-in 98.32 a node-hour: 12.29 per GPU-hour
    p.setMaxOnDemandUsdPerGpuHour(10.0);
    assertThatThrownBy(() -> layout("aws", List.of(p), List.of(), List.of())).isInstanceOf(IllegalStateException.class)
        .hasMessage("squall.partitions.gpu.max-on-demand-usd-per-gpu-hour: 10.0 is below the list price of every "
            + "on-demand offering the partition may buy, the cheapest being p5.48xlarge at 12.29 USD per GPU-hour, "
            + "so it would never buy on-demand; raise the cap or remove it");

    p.setMaxOnDemandUsdPerGpuHour(12.29);
    assertThat(layout("aws", List.of(p), List.of(), List.of()).policies().get("gpu").caps())
        .isEqualTo(new PriceCaps(null, 12.29));
  }

  @Test
  void aConfiguredAwsPriceIsTheOneJudged() {
    PartitionConfig p = elastic("gpu", "p5.48xlarge");
    p.setMaxOnDemandUsdPerGpuHour(10.0);
    AwsProviderConfig aws = new AwsProviderConfig();
    aws.setOnDemandPrices(Map.of("p5.48xlarge", 64.0)); // 8.00 per GPU-hour, under the cap
    assertThat(layout("aws", aws, new LocalProviderConfig(), List.of(p), List.of(), List.of()).policies())
        .containsKey("gpu");
  }

  @Test
  void aQosCapBelowTheGceListPriceInTheOnlyElasticPartitionIsRefused() {
    QosConfig cheap = new QosConfig("cheap");
    cheap.setMaxSpotUsdPerGpuHour(5.0); // a3-highgpu-8g spot lists at 50.61: 6.33 per GPU-hour
    assertThatThrownBy(() -> layout("gcp", List.of(elastic("gpu", "a3-highgpu-8g")), List.of(), List.of(cheap)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("squall.qos.cheap.max-spot-usd-per-gpu-hour: 5.0 is below the list price of every spot offering "
            + "of every elastic partition, the cheapest being a3-highgpu-8g in partition gpu at 6.33 USD per "
            + "GPU-hour, so its jobs would never get spot; raise the cap or remove it");

    AccountConfig ml = new AccountConfig("ml");
    ml.setMaxOnDemandUsdPerGpuHour(11.0); // on-demand lists at 88.49: 11.06 per GPU-hour
    assertThatThrownBy(() -> layout("gcp", List.of(elastic("gpu", "a3-highgpu-8g")), List.of(ml), List.of()))
        .hasMessageStartingWith("squall.accounts.ml.max-on-demand-usd-per-gpu-hour: 11.0 is below the list price of "
            + "every on-demand offering of every elastic partition, the cheapest being a3-highgpu-8g in partition gpu "
            + "at 11.06 USD per GPU-hour");
  }

  @Test
  void aCapThatOnePartitionsOfferingMeetsIsAccepted() {
    QosConfig cheap = new QosConfig("cheap");
    cheap.setMaxSpotUsdPerGpuHour(5.0);
    // a3-megagpu-8g spot lists at 23.28: 2.91 per GPU-hour, under the cap; a3-highgpu-8g's 6.33 is not.
    List<PartitionConfig> both = List.of(elastic("gpu", "a3-highgpu-8g"), elastic("mega", "a3-megagpu-8g"));
    assertThat(layout("gcp", both, List.of(), List.of(cheap)).purchaseRules().qosRule("cheap").caps())
        .isEqualTo(new PriceCaps(5.0, null));

    // Within one partition too: the cheaper of its types meets a partition's cap.
    PartitionConfig gpu = elastic("gpu", "a3-highgpu-8g", "a3-megagpu-8g");
    gpu.setMaxSpotUsdPerGpuHour(5.0);
    assertThat(layout("gcp", List.of(gpu), List.of(), List.of()).policies().get("gpu").caps())
        .isEqualTo(new PriceCaps(5.0, null));
  }

  @Test
  void aCapOnlyRunTimePricesCanJudgeIsAccepted() {
    // AWS spot prices are a market, read live: nothing to judge a spot cap against at start-up.
    PartitionConfig p = elastic("gpu", "p5.48xlarge");
    p.setMaxSpotUsdPerGpuHour(0.5);
    QosConfig cheap = new QosConfig("cheap");
    cheap.setMaxSpotUsdPerGpuHour(0.5);
    assertThat(layout("aws", List.of(p), List.of(), List.of(cheap)).policies().get("gpu").caps())
        .isEqualTo(new PriceCaps(0.5, null));

    // p5e.48xlarge has no built-in on-demand price: it could be the cheap one.
    PartitionConfig mixed = elastic("gpu", "p5.48xlarge", "p5e.48xlarge");
    mixed.setMaxOnDemandUsdPerGpuHour(10.0);
    assertThat(layout("aws", List.of(mixed), List.of(), List.of()).policies()).containsKey("gpu");
  }

  @Test
  void aCapOfACapacityTypeThePartitionDoesNotBuyIsNotJudgedThere() {
    // A spot cap holds nothing back in a partition that buys no spot: its own is not judged, and
    // a QOS's is judged against the partitions that buy spot.
    PartitionConfig spot = elastic("gpu", "a3-highgpu-8g");
    PartitionConfig onDemand = elastic("steady", "a3-megagpu-8g");
    onDemand.setSpot("on-demand");
    onDemand.setMaxSpotUsdPerGpuHour(1.0); // it buys no spot: nothing for this cap to hold back
    QosConfig cheap = new QosConfig("cheap");
    cheap.setMaxSpotUsdPerGpuHour(5.0);
    assertThatThrownBy(() -> layout("gcp", List.of(spot, onDemand), List.of(), List.of(cheap)))
        .hasMessageStartingWith("squall.qos.cheap.max-spot-usd-per-gpu-hour: 5.0 is below the list price of every "
            + "spot offering of every elastic partition, the cheapest being a3-highgpu-8g in partition gpu at 6.33");
    assertThat(layout("gcp", List.of(spot, onDemand), List.of(), List.of()).policies().get("steady").caps())
        .isEqualTo(new PriceCaps(1.0, null));
  }

  @Test
  void theLocalProvidersConfiguredPricesAreJudgedPerGpuOfTheNodes() {
    LocalProviderConfig local = new LocalProviderConfig();
    local.setOnDemandPrice(36);
    local.setSpotPrice(12.0); // 1.50 per GPU-hour on 8 GPUs, 0.75 on 16
    AccountConfig research = new AccountConfig("research");
    research.setMaxSpotUsdPerGpuHour(1.0);
    assertThatThrownBy(() -> layout("local", new AwsProviderConfig(), local, List.of(elastic("gpu", "local")),
        List.of(research), List.of()))
        .hasMessageStartingWith("squall.accounts.research.max-spot-usd-per-gpu-hour: 1.0 is below the list price of "
            + "every spot offering of every elastic partition, the cheapest being local in partition gpu at 1.50");
    PartitionConfig wide = elastic("wide", "local");
    wide.setGpus(16);
    assertThat(layout("local", new AwsProviderConfig(), local, List.of(elastic("gpu", "local"), wide),
        List.of(research), List.of()).purchaseRules().accountCaps("research")).isEqualTo(new PriceCaps(1.0, null));
  }
}
