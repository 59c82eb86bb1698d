package io.squall.agent;

import com.sun.security.auth.module.UnixSystem;
import io.squall.agent.Protocol.RunAs;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether this agent can run jobs as their users. Only root can change a process's user: an
 * agent running as root runs every process of a job as the job's user, and refuses a job the
 * controller named no user for (it would otherwise run as root); any other agent (a laptop, a
 * test) runs every job as itself and says so once, at start.
 */
final class JobUsers {
  private final boolean root;
  /** Each user looked up once (every batch script and srun task asks): what nscd does for a node. */
  private final Map<RunAs, JobUser> resolved = new ConcurrentHashMap<>();

  private JobUsers(boolean root) {
    this.root = root;
  }

  static JobUsers detect(AgentLog log) {
    UnixSystem self = new UnixSystem();
    boolean root = self.getUid() == 0;
    if (!root) {
      log.info("running as " + self.getUsername() + " (uid " + self.getUid() + "), not root: every job runs as "
          + self.getUsername() + ", whoever submitted it");
    }
    return new JobUsers(root);
  }

  boolean root() {
    return root;
  }

  /**
   * The user a job runs as here; null for the agent's own user.
   *
   * @throws IllegalArgumentException when the job's user cannot be found, or a root agent is given none
   */
  JobUser of(RunAs runAs) {
    if (!root) {
      return null;
    }
    if (runAs == null) {
      throw new IllegalArgumentException("the controller named no user for the job; a root agent runs no job as root"
          + " unless told to");
    }
    return resolved.computeIfAbsent(runAs, JobUser::resolve);
  }
}
