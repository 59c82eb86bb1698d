package io.squall.core.provider;

import java.util.Objects;

/**
 * One way to buy a node: an instance type in a zone under a capacity type, with its price.
 *
 * @param instanceType the provider's name: {@code p5.48xlarge}, {@code a3-highgpu-8g}, {@code local}
 * @param zone the availability zone ({@code us-east-1a}, {@code us-central1-a}); its region is
 *     the provider's
 * @param pricePerHour US dollars per node-hour; for spot the latest spot price, 0 when unknown
 */
public record Offering(String instanceType, String zone, CapacityType capacityType, double pricePerHour,
    Availability availability) {
  public Offering {
    Objects.requireNonNull(instanceType, "instanceType");
    Objects.requireNonNull(zone, "zone");
    Objects.requireNonNull(capacityType, "capacityType");
    Objects.requireNonNull(availability, "availability");
    if (pricePerHour < 0 || Double.isNaN(pricePerHour)) {
      throw new IllegalArgumentException("offering " + instanceType + "/" + zone + ": price must be >= 0");
    }
  }

  /** Type, zone and capacity type: what identifies an offering, whatever its price today. */
  public String key() {
    return instanceType + "/" + zone + "/" + capacityType;
  }

  /**
   * The offering a {@link #key()} names, at {@code pricePerHour}, available (prices and launch
   * intents are recorded by key).
   *
   * @throws IllegalArgumentException when {@code key} is not {@code TYPE/ZONE/CAPACITY_TYPE}
   */
  public static Offering ofKey(String key, double pricePerHour) {
    String[] parts = key.split("/");
    if (parts.length != 3) {
      throw new IllegalArgumentException("'" + key + "' is not an offering key (type/zone/capacity type)");
    }
    return new Offering(parts[0], parts[1], CapacityType.valueOf(parts[2]), pricePerHour, Availability.AVAILABLE);
  }

  public Offering withAvailability(Availability a) {
    return new Offering(instanceType, zone, capacityType, pricePerHour, a);
  }
}
