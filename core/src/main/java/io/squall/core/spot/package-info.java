/**
 * Spot interruptions as the core sees them: whatever told us (the node's metadata service, a
 * cloud event queue, reconciliation, an operator), a notice is one {@link
 * io.squall.core.spot.Interruption}: which node or instance, what is going to happen, and by
 * when. {@link io.squall.core.spot.InterruptionSource} is the plugin interface of the sources;
 * they live in {@code spot-handler/} (metadata watchers, event parsing) and
 * {@code providers/*} (cloud transports such as SQS).
 */
package io.squall.core.spot;
