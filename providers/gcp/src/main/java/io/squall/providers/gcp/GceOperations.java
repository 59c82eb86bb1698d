package io.squall.providers.gcp;

import com.google.api.gax.rpc.ApiException;
import com.google.cloud.compute.v1.Operation;
import io.squall.core.provider.ProviderException;
import java.time.Duration;
import java.util.function.Function;

/**
 * Waits for zonal and regional operations with GCE's {@code operations.wait} (which answers when
 * the operation is DONE or after about two minutes) until DONE or the configured timeout.
 */
final class GceOperations {
  private final GceClients clients;
  private final String project;
  private final Duration timeout;

  GceOperations(GceClients clients, String project, Duration timeout) {
    this.clients = clients;
    this.project = project;
    this.timeout = timeout;
  }

  /** The zonal operation once DONE (its error, if any, still in it). */
  Operation awaitZonal(String action, String zone, Operation op) {
    return await(action, op, name -> clients.zoneOperations.wait(project, zone, name));
  }

  /** The regional operation once DONE (its error, if any, still in it). */
  Operation awaitRegional(String action, String region, Operation op) {
    return await(action, op, name -> clients.regionOperations.wait(project, region, name));
  }

  /** Calls {@code wait} (the operation's name to its newer state) until the operation is DONE. */
  private Operation await(String action, Operation op, Function<String, Operation> wait) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (op.getStatus() != Operation.Status.DONE) {
      checkDeadline(action, op, deadline);
      try {
        op = wait.apply(op.getName());
      } catch (ApiException e) {
        throw GceErrors.fromApi(action + ": waiting for " + op.getName(), e);
      }
    }
    return op;
  }

  private void checkDeadline(String action, Operation op, long deadline) {
    if (System.nanoTime() - deadline > 0) {
      throw new ProviderException(ProviderException.Kind.TRANSIENT, "gcp: " + action + ": operation " + op.getName()
          + " still " + op.getStatus() + " after " + timeout + " (a retry with the same token is deduplicated)");
    }
  }
}
