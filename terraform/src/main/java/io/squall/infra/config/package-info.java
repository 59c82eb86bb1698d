/**
 * The controller's configuration as the infrastructure needs it: partitions with their nodes,
 * placement groups (named as the controller names them), instance types, zones and capacity
 * rule; the provider's {@code squall.aws.*} or {@code squall.gcp.*} keys; {@code squall.infra.*}.
 * Everything is checked on reading; a problem is an {@link io.squall.infra.InfraException} naming
 * the file and key.
 */
package io.squall.infra.config;
