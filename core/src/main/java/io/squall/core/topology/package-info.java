/**
 * Network layout: which nodes share a fast fabric. Read from Slurm's {@code topology.conf} (tree
 * with {@code SwitchName=... Nodes=...|Switches=...}, or block with {@code BlockName=...
 * Nodes=...} and {@code BlockSizes=}), or given per node as a cloud placement group. The
 * scheduler only needs the group of each node: a leaf switch or a block.
 */
package io.squall.core.topology;
