package io.squall.api.cluster;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.squall.api.config.ClusterLayout;
import io.squall.api.state.StateWriter;
import io.squall.core.priority.FairShare;
import io.squall.core.priority.UsageMeter;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/shares}: every association's shares, usage and fair-share factor, as sshare
 * shows them (Slurm shows them to every user unless PrivateData=usage, which is not modelled).
 * Usage is decayed to now, as the next scheduling cycle reads it.
 */
@Controller("/v1")
@Tag(name = "cluster")
public final class SharesController {
  private final StateWriter writer;
  private final ClusterLayout layout;
  private final UsageMeter meter;
  private final InstantSource clock;

  public SharesController(StateWriter writer, ClusterLayout layout, UsageMeter meter, InstantSource clock) {
    this.writer = writer;
    this.layout = layout;
    this.meter = meter;
    this.clock = clock;
  }

  @Operation(summary = "Fair-share standing of root, every account and every user association, as sshare lists it")
  @Get("/shares")
  public Map<String, Object> shares() {
    Instant now = clock.instant();
    FairShare fs = FairShare.compute(meter.policy().algorithm(), layout.accounts(), layout.users(),
        writer.state().usage().decayedTo(now));
    List<Map<String, Object>> rows = new ArrayList<>();
    for (FairShare.Standing s : fs.standings()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("account", s.account());
      m.put("user", s.user());
      m.put("depth", s.depth());
      m.put("raw_shares", s.depth() == 0 ? null : s.rawShares());
      m.put("norm_shares", s.normShares());
      m.put("raw_usage", s.rawUsage());
      m.put("norm_usage", s.normUsage());
      m.put("effective_usage", s.effectiveUsage());
      m.put("level_fs", Double.isNaN(s.levelFs()) ? null : Double.isInfinite(s.levelFs()) ? "inf" : s.levelFs());
      m.put("fair_share", Double.isNaN(s.factor()) ? null : s.factor());
      rows.add(m);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("algorithm", meter.policy().algorithm().configName());
    out.put("as_of", now.toString());
    out.put("shares", rows);
    return out;
  }
}
