/**
 * The provider SPI: how the controller buys and gives back nodes. Offerings (instance type, zone,
 * spot or on-demand, price) are listed; a gang is launched all-or-nothing into one placement
 * group with an idempotency token; instances carry the cluster and node name as tags so a
 * restarted controller can list them and reconcile; failures are typed
 * ({@link io.squall.core.provider.ProviderException.Kind}) so that capacity errors lead to
 * another offering and throttling to a backoff. Providers are plugins in {@code providers/*};
 * the controller is their only caller.
 */
package io.squall.core.provider;
