package io.squall.api.auth;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.RequestAttribute;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /v1/whoami}: who the token is, so that a client (the dashboard) can say whose view it
 * shows; what the token may see and do is still decided by each call.
 */
@Controller("/v1")
@Tag(name = "cluster")
public final class WhoAmIController {
  @Operation(summary = "The token's user, default account and whether it is an operator's")
  @Get("/whoami")
  public Map<String, Object> whoami(@RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("user", caller.user());
    m.put("account", caller.account());
    m.put("operator", caller.operator());
    return m;
  }
}
