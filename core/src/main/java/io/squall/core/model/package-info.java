/**
 * The cluster as the scheduler sees it: partitions, nodes, accounts, QOS and jobs, as immutable
 * values. A {@link io.squall.core.model.ClusterSnapshot} is everything one scheduling cycle
 * reads; nothing here changes state or does I/O.
 */
package io.squall.core.model;
