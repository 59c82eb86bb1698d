package io.squall.api.auth;

/**
 * Who made a request, from its bearer token.
 *
 * @param account the user's default account (jobs are charged to it unless --account says otherwise)
 * @param operator may see and control every job
 * @param agent a node agent, not a user
 * @param node for an agent with a per-node token, the node it may speak for; null for the
 *     cluster's agent token (any node) and for users
 */
public record Caller(String user, String account, boolean operator, boolean agent, String node) {
  /** The request attribute the token filter stores the caller under. */
  public static final String ATTRIBUTE = "squall.caller";

  public static Caller user(String user, String account, boolean operator) {
    return new Caller(user, account, operator, false, null);
  }

  /** @param node the node its token is bound to, or null for the cluster's agent token */
  public static Caller agentCaller(String node) {
    return new Caller("squall-agent", null, false, true, node);
  }

  /** Whether this agent may speak for {@code name}. */
  public boolean speaksFor(String name) {
    return agent && (node == null || node.equals(name));
  }

  public boolean mayControl(String jobUser) {
    return operator || user.equals(jobUser);
  }
}
