package io.squall.api.store;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/** The instance a node runs on, as its launch returned it. */
@MappedEntity("instances")
public record InstanceRow(@Id String nodeName, String instanceId, String launchToken, String instanceType, String zone,
    String capacityType, double pricePerHour, Instant created) {}
