package io.squall.api.auth;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.squall.api.agents.AgentCredentials;
import java.util.Map;
import java.util.Optional;

/**
 * Every {@code /v1} call carries {@code Authorization: Bearer TOKEN}, and so do the metrics
 * ({@code /prometheus}) and the API description ({@code /swagger}), which take any user's token;
 * only {@code /health} is open, for load balancers. User tokens come from
 * {@code squall.users}; {@code /v1/agent/*} takes only agent tokens ({@link AgentCredentials}: the
 * cluster's, or a node's own, which binds the caller to that node), and they are good for nothing
 * else.
 */
@ServerFilter({"/v1/**", "/prometheus", "/prometheus/**", "/swagger/**"})
public final class TokenFilter {
  private final UserTokens users;
  private final AgentCredentials agents;

  public TokenFilter(UserTokens users, AgentCredentials agents) {
    this.users = users;
    this.agents = agents;
  }

  @RequestFilter
  @Nullable
  public HttpResponse<?> authenticate(HttpRequest<?> request) {
    Optional<String> header = request.getHeaders().getAuthorization();
    if (header.isEmpty() || !header.get().startsWith("Bearer ")) {
      return refuse("missing API token: send 'Authorization: Bearer TOKEN' (SQUALL_TOKEN for the CLI)");
    }
    String token = header.get().substring("Bearer ".length()).trim();
    boolean agentPath = request.getPath().startsWith("/v1/agent/");
    if (agentPath) {
      Caller agent = agents.isClusterToken(token) ? Caller.agentCaller(null)
          : agents.nodeOf(token).map(Caller::agentCaller).orElse(null);
      if (agent == null) {
        return refuse("the node agent calls need the agent token (the cluster's or the node's own)");
      }
      request.setAttribute(Caller.ATTRIBUTE, agent);
      return null;
    }
    Caller caller = users.caller(token);
    if (caller == null) {
      return refuse("unknown API token");
    }
    request.setAttribute(Caller.ATTRIBUTE, caller);
    return null;
  }

  private static HttpResponse<?> refuse(String message) {
    return HttpResponse.status(HttpStatus.UNAUTHORIZED).body(Map.of("error", message));
  }
}
