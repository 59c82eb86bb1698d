/**
 * The Google Compute Engine provider ({@link io.squall.providers.gcp.GcpProvider}).
 *
 * <p>Contract with GCE:
 * <ul>
 *   <li>Offerings: a machine type is offered in a configured zone when {@code machineTypes.get}
 *       finds it; each such zone gives a SPOT and an ON_DEMAND (STANDARD) offering, priced from
 *       the built-in list prices ({@link io.squall.providers.gcp.GcpSettings#DEFAULT_PRICES}) or
 *       configured ones.
 *   <li>Launch: one zonal {@code instances.bulkInsert} per gang with {@code count} = node count,
 *       {@code minCount} = the request's, one instance per node named after it (node names must
 *       be GCE names), and {@code requestId} = a UUID derived from the idempotency token, so GCE
 *       deduplicates a repeat. SPOT uses {@code provisioningModel=SPOT} and
 *       {@code instanceTerminationAction=DELETE}; GPU machines terminate on host maintenance.
 *       The placement group is a regional compact placement policy
 *       ({@code squall-<cluster>-<group>}, {@code COLLOCATED}), created on first use.
 *   <li>Identity: labels {@code squall-cluster}, {@code squall-partition}, {@code squall-launch},
 *       {@code squall-placement-group} (sanitized, for filters) and the same keys in metadata
 *       (exact, for reading back); the {@code startup-script} metadata holds every node of the
 *       launch and each machine picks its own by its instance name from the metadata server.
 *   <li>List: {@code instances.aggregatedList} filtered on the cluster label; deleted instances
 *       are absent, stopped ones (TERMINATED, SUSPENDED) are STOPPING.
 *   <li>Errors: {@link io.squall.providers.gcp.GceErrors} maps operation codes and HTTP reasons
 *       to {@link io.squall.core.provider.ProviderException.Kind}s; no call is retried here.
 * </ul>
 */
package io.squall.providers.gcp;
