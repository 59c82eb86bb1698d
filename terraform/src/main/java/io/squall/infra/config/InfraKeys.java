package io.squall.infra.config;

import java.util.List;

/**
 * The keys only the infrastructure reads ({@code squall.infra.*}); the controller ignores them.
 *
 * @param adminCidrs {@code admin-cidrs}: who may reach the controller's API from outside (none by default)
 * @param networkCidr {@code network-cidr}: the address range of a network made here (10.42.0.0/16)
 * @param checkpointBucket {@code checkpoint-bucket}: the bucket's name; null for a generated one
 * @param distribution {@code distribution}: the server distribution's object key in that bucket
 * @param controllerType {@code controller.instance-type}: the controller's machine; null for the cloud's default
 * @param databaseTier {@code database.instance-class}: the RDS class or Cloud SQL tier; null for the cloud's default
 */
public record InfraKeys(List<String> adminCidrs, String networkCidr, String checkpointBucket, String distribution,
    String controllerType, String databaseTier) {
  public InfraKeys {
    adminCidrs = List.copyOf(adminCidrs);
  }
}
