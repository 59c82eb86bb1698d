/**
 * Job priority as Slurm's priority/multifactor computes it: weighted age, fair-share, job size,
 * partition and QOS factors, minus nice. Fair-share uses the classic formula over the account
 * tree, {@code F = 2^(-effective usage / normalized shares)}, with usage decayed by a half-life.
 * Everything is a pure function of the snapshot and "now".
 */
package io.squall.core.priority;
