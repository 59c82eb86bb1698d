package io.squall.core.sbatch;

/** {@code --exclusive[=user|mcs|topo]}: who may share the job's nodes. */
public enum Exclusive {
  /** Not exclusive: the node may be shared (Slurm's default, printed as false). */
  NO,
  /** Whole nodes for this job alone ({@code --exclusive}). */
  NODE,
  /** Nodes shared only with this user's jobs. */
  USER,
  /** Nodes shared only with jobs of the same MCS label. */
  MCS,
  /** The job's topology segment is not shared. */
  TOPO
}
