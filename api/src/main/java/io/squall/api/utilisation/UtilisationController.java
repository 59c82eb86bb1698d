package io.squall.api.utilisation;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.squall.api.config.SquallConfig;
import io.squall.api.web.TimeParameter;
import io.squall.core.utilisation.GpuSample;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/utilisation}: the cluster's GPUs over time, allocated, idle, powered down and
 * down. Any user's token: it names no job, as {@code /v1/nodes}' states do not.
 */
@Controller("/v1")
@Tag(name = "cluster")
public final class UtilisationController {
  private final GpuUtilisation utilisation;
  private final SquallConfig config;

  public UtilisationController(GpuUtilisation utilisation, SquallConfig config) {
    this.utilisation = utilisation;
    this.config = config;
  }

  @Operation(summary = "GPUs allocated, idle, powered down and down, one sample per squall.utilisation.interval, "
      + "oldest first, since a time (default: all kept)")
  @Get("/utilisation{?since}")
  public Map<String, Object> utilisation(@Nullable @QueryValue String since) {
    Instant from = since == null ? Instant.EPOCH : TimeParameter.parse("since", since, config.zoneId());
    List<Map<String, Object>> samples = new ArrayList<>();
    for (GpuSample s : utilisation.since(from)) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("time", s.at().toString());
      m.put("allocated", s.allocated());
      m.put("idle", s.idle());
      m.put("powered_down", s.poweredDown());
      m.put("down", s.down());
      samples.add(m);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("interval_seconds", utilisation.intervalSeconds());
    out.put("samples", samples);
    return out;
  }
}
