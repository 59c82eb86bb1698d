package io.squall.core.model;

/**
 * A fair-share account; accounts form a tree under {@code root}. Its limits are Slurm's
 * association limits set on the account: the Grp ones hold for the account and its sub-accounts
 * together, MaxJobs and MaxSubmitJobs for each user of it (each user association inherits them, as
 * in sacctmgr(1): "This is overridden if set directly on a user").
 *
 * @param parent the parent account, or null for a child of root
 * @param shares this account's share among its siblings
 */
public record Account(String name, String parent, int shares, Limits limits) {
  public Account {
    java.util.Objects.requireNonNull(limits, "limits");
  }

  /** An account without limits. */
  public Account(String name, String parent, int shares) {
    this(name, parent, shares, Limits.NONE);
  }

  /**
   * @param grpTres GrpTRES: what the running jobs of the account and its sub-accounts may hold together
   * @param grpGpuMinutes GrpTRESMins=gres/gpu: GPU-minutes the account and its sub-accounts may use
   *     (decayed usage, plus what running jobs may still use); null for no limit
   * @param maxJobs MaxJobs: jobs each user of the account may have running; null for none
   * @param maxSubmitJobs MaxSubmitJobs: jobs each user of the account may have pending or running;
   *     a submission past it is refused; null for none
   */
  public record Limits(Tres grpTres, Long grpGpuMinutes, Integer maxJobs, Integer maxSubmitJobs) {
    public static final Limits NONE = new Limits(Tres.NONE, null, null, null);

    public Limits {
      java.util.Objects.requireNonNull(grpTres, "grpTres");
    }
  }
}
