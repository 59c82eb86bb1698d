package io.squall.core.schedule;

/** Why a job waits, with the name squeue prints in its REASON column. */
public enum PendingReason {
  PRIORITY("Priority"),
  RESOURCES("Resources"),
  DEPENDENCY("Dependency"),
  DEPENDENCY_NEVER_SATISFIED("DependencyNeverSatisfied"),
  BEGIN_TIME("BeginTime"),
  JOB_HELD_USER("JobHeldUser"),
  JOB_ARRAY_TASK_LIMIT("JobArrayTaskLimit"),
  PARTITION_TIME_LIMIT("PartitionTimeLimit"),
  PARTITION_NODE_LIMIT("PartitionNodeLimit"),
  PARTITION_CONFIG("PartitionConfig"),
  INVALID_ACCOUNT("InvalidAccount"),
  INVALID_QOS("InvalidQOS"),
  // Limits, named as slurmctld names them (slurm_protocol_defs.c, job_state_reason_string).
  QOS_GRP_GRES("QOSGrpGRES"),
  QOS_GRP_CPU("QOSGrpCpuLimit"),
  QOS_GRP_MEM("QOSGrpMemLimit"),
  QOS_GRP_NODE("QOSGrpNodeLimit"),
  QOS_GRP_GRES_MINUTES("QOSGrpGRESMinutes"),
  QOS_MAX_JOBS_PER_USER("QOSMaxJobsPerUserLimit"),
  QOS_MAX_GRES_PER_USER("QOSMaxGRESPerUser"),
  QOS_MAX_CPU_PER_USER("QOSMaxCpuPerUserLimit"),
  QOS_MAX_MEMORY_PER_USER("QOSMaxMemoryPerUser"),
  QOS_MAX_NODE_PER_USER("QOSMaxNodePerUserLimit"),
  ASSOC_GRP_GRES("AssocGrpGRES"),
  ASSOC_GRP_CPU("AssocGrpCpuLimit"),
  ASSOC_GRP_MEM("AssocGrpMemLimit"),
  ASSOC_GRP_NODE("AssocGrpNodeLimit"),
  ASSOC_GRP_GRES_MINUTES("AssocGrpGRESMinutes"),
  ASSOC_MAX_JOBS("AssocMaxJobsLimit"),
  /** The account's hard budget is spent, or the job's worst-case cost does not fit what is left. */
  ASSOC_GRP_BILLING_MINUTES("AssocGrpBillingMinutes"),
  REQ_NODE_NOT_AVAIL("ReqNodeNotAvail"),
  /** Waits for its advanced reservation to begin. */
  RESERVATION("Reservation"),
  /** The advanced reservation it names was deleted or ended (slurmctld's WAIT_RESV_DELETED). */
  RESERVATION_DELETED("ReservationDeleted"),
  /** Only a MAINT reservation's window keeps it off the nodes it would start on now. */
  RESERVED_FOR_MAINTENANCE("ReqNodeNotAvail, Reserved for maintenance"),
  DEADLINE("DeadLine");

  private final String slurmName;

  PendingReason(String slurmName) {
    this.slurmName = slurmName;
  }

  public String slurmName() {
    return slurmName;
  }
}
