package io.squall.core.provider;

import java.util.List;

/**
 * Brings nodes into existence and takes them away. The controller decides which nodes it wants;
 * a provider only makes it so. Implementations live in {@code providers/*}.
 *
 * <p>Thread safety: the controller calls a provider from one thread at a time.
 */
public interface NodeProvider extends AutoCloseable {
  /** A short name for logs and configuration: {@code local}, {@code aws}, {@code gcp}. */
  String name();

  /**
   * Starts these nodes; each starts its agent, which then registers with the controller (the
   * node is usable only from that registration on). Idempotent per node name: a node that is
   * already running is left alone.
   *
   * @throws ProviderException when a node cannot be started; nodes started before it stay up
   */
  void launch(List<NodeLaunch> nodes);

  /**
   * Stops a node and everything running on it. Idempotent: a node that is already gone counts
   * as done.
   */
  void terminate(String nodeName);

  /** The names of the nodes this provider runs now, in name order; for reconciliation. */
  List<String> list();

  /** Stops every node this provider started. */
  @Override
  void close();
}
