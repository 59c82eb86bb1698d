package io.squall.agent;

/**
 * A process the agent started for a job.
 *
 * @param ownSession whether it leads its own session and process group (started under setsid),
 *     which makes the group id equal to its pid and the group safe to kill as a whole
 */
record Launched(Process process, boolean ownSession) {
  ProcessHandle handle() {
    return process.toHandle();
  }
}
