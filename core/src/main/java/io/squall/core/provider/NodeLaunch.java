package io.squall.core.provider;

import io.squall.core.model.Node;

/**
 * One node to start and how its agent reaches the controller.
 *
 * @param node the node's name, GPUs, CPUs, memory, features and placement group (its state is ignored)
 * @param controllerUrl the controller's base address, e.g. {@code http://127.0.0.1:6820}
 * @param agentToken the bearer token the agent presents to the controller and takes from it: the
 *     node's own (the controller's per-node tokens), so that the machine never holds the cluster's secret
 */
public record NodeLaunch(Node node, String controllerUrl, String agentToken) {}
