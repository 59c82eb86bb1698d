package io.squall.api.auth;

/**
 * Who made a request, from its bearer token.
 *
 * @param account the user's default account (jobs are charged to it unless --account says otherwise)
 * @param operator may see and control every job
 * @param agent a node agent, not a user
 */
public record Caller(String user, String account, boolean operator, boolean agent) {
  /** The request attribute the token filter stores the caller under. */
  public static final String ATTRIBUTE = "squall.caller";

  public static Caller agentCaller() {
    return new Caller("squall-agent", null, false, true);
  }

  public boolean mayControl(String jobUser) {
    return operator || user.equals(jobUser);
  }
}
