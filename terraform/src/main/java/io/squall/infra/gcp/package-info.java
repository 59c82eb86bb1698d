/**
 * A Squall cluster's GCP infrastructure, one small class per part (service accounts and the
 * controller's custom role, network and firewall, compact placement policies, instance templates,
 * bucket, Cloud SQL, controller). The custom role holds exactly the Compute permissions
 * {@code providers/gcp} needs ({@link io.squall.infra.gcp.ComputePermissions}), which
 * IamCoverageTest checks against the provider's bytecode.
 */
package io.squall.infra.gcp;
