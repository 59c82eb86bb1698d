package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import io.squall.core.money.Charges;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.time.Instant;

/** An instance's billing period: from its launch until it was gone (null while it runs). */
@MappedEntity("instance_bills")
public record InstanceBillRow(@Id String instanceId, String nodeName, String partitionName, String instanceType,
    String zone, String capacityType, double launchUsdPerHour, int gpus, Instant launched, @Nullable Instant gone) {

  public Offering offering() {
    return new Offering(instanceType, zone, CapacityType.valueOf(capacityType), launchUsdPerHour,
        Availability.AVAILABLE);
  }

  public Charges.Billing billing() {
    return new Charges.Billing(instanceId, nodeName, offering(), gpus, launched, gone);
  }

  public InstanceBillRow goneAt(Instant at) {
    return new InstanceBillRow(instanceId, nodeName, partitionName, instanceType, zone, capacityType,
        launchUsdPerHour, gpus, launched, at);
  }
}
