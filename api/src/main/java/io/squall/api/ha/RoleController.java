package io.squall.api.ha;

import io.micronaut.context.annotation.Value;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /ha}, open like {@code /health}: this controller's role. A running service always
 * leads (a standby answers from {@link StandbyServer} before the service starts); with HA it says
 * its term and address, so that clients and operators see who leads.
 */
@Controller("/ha")
public final class RoleController {
  private final long term;
  private final String url;

  public RoleController(@Value("${squall.ha.term:0}") long term, @Nullable @Value("${squall.ha.advertise-url:}") String url) {
    this.term = term;
    this.url = url == null || url.isBlank() ? null : url;
  }

  @Get
  public Map<String, Object> role() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", "UP");
    m.put("role", "leader");
    m.put("leader", url);
    m.put("term", term == 0 ? null : term);
    return m;
  }
}
