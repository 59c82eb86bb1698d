/**
 * Slurm hostlist expressions ({@code gpu[001-004,010]}, {@code a1,b[1-2]}): expanding them to
 * names and compressing names back into the shortest form Slurm itself prints.
 *
 * <p>Contract: expansion keeps the written order and drops nothing; compression sorts and merges
 * numeric runs that share a prefix and zero-padding, so {@code compress(expand(x))} is canonical.
 */
package io.squall.core.hostlist;
