package io.squall.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CatalogueTest {
  private static String bundled() throws Exception {
    try (var in = CatalogueTest.class.getResourceAsStream(Catalogue.BUNDLED)) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  @Test
  void theBundledListSellsP5InEveryUsEast1ZoneOnDemandAndSpotWherePriced() throws Exception {
    List<Offering> p5 = Catalogue.parse(bundled(), "bundled", Set.of("p5.48xlarge"), "us-east-1");
    assertThat(p5).filteredOn(o -> o.capacityType() == CapacityType.ON_DEMAND)
        .isNotEmpty().allMatch(o -> o.pricePerHour() == 98.32);
    assertThat(p5).filteredOn(o -> o.capacityType() == CapacityType.SPOT).isNotEmpty()
        .allMatch(o -> o.pricePerHour() > 0 && o.pricePerHour() < 98.32);
    assertThat(Catalogue.parse(bundled(), "bundled", Set.of("p5.48xlarge"), "mars-1")).isEmpty();
  }

  @Test
  void aBadRowIsRefusedNamingItsLineAndField() {
    String header = "InstanceType,Price,SpotPrice,Region,AvailabilityZone\n";
    List<Offering> ok = Catalogue.parse(header + "x,10,,r,z1\nx,10,3,r,z2\ny,1,1,r,z1\n", "p.csv",
        Set.of("x"), "r");
    assertThat(ok).extracting(Offering::key).containsExactly("x/z1/ON_DEMAND", "x/z2/ON_DEMAND", "x/z2/SPOT");
    assertThatThrownBy(() -> Catalogue.parse(header + "x,ten,,r,z1\n", "p.csv", Set.of("x"), "r"))
        .hasMessage("p.csv line 2, field Price: 'ten' is not a price in US dollars per hour");
    assertThatThrownBy(() -> Catalogue.parse("InstanceType,Price\n", "p.csv", Set.of("x"), "r"))
        .hasMessageStartingWith("p.csv: no SpotPrice column");
  }
}
