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
  QOS_GRP_GRES("QOSGrpGRES"),
  QOS_GRP_GRES_MINUTES("QOSGrpGRESMinutes"),
  /** The account's hard budget is spent, or the job's worst-case cost does not fit what is left. */
  ASSOC_GRP_BILLING_MINUTES("AssocGrpBillingMinutes"),
  REQ_NODE_NOT_AVAIL("ReqNodeNotAvail"),
  RESERVATION("Reservation"),
  DEADLINE("DeadLine");

  private final String slurmName;

  PendingReason(String slurmName) {
    this.slurmName = slurmName;
  }

  public String slurmName() {
    return slurmName;
  }
}
