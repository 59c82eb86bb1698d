package io.squall.api.cluster;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.squall.api.auth.Caller;
import io.squall.api.config.ClusterLayout;
import io.squall.api.state.ApiException;
import io.squall.api.state.StateWriter;
import io.squall.api.web.TextRules;
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
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code GET /v1/shares}: associations' shares, usage and fair-share factor, as sshare shows them
 * (Slurm shows them to every user unless PrivateData=usage, which is not modelled). Usage is
 * decayed to now, as the next scheduling cycle reads it. Which associations, as slurmctld
 * answers sshare's request (assoc_mgr_get_shares): root and every account, and the user
 * associations of the users asked for ({@code users}), of everyone ({@code all}), or else of the
 * caller, as sshare asks for its own user without -a or -u; {@code accounts} keeps only the
 * associations of those accounts.
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
  public Map<String, Object> shares(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Nullable @QueryValue String users, @Nullable @QueryValue String accounts, @Nullable @QueryValue String all) {
    boolean everyone = flag("all", all);
    Set<String> userNames = users != null ? names(users) : everyone ? null : Set.of(caller.user());
    Set<String> accountNames = accounts == null ? null : names(accounts);
    Instant now = clock.instant();
    FairShare fs = FairShare.compute(meter.policy().algorithm(), layout.accounts(), layout.users(),
        writer.state().usage().decayedTo(now));
    List<Map<String, Object>> rows = new ArrayList<>();
    for (FairShare.Standing s : fs.standings()) {
      if (s.user() != null && userNames != null && !userNames.contains(s.user())
          || accountNames != null && !accountNames.contains(s.account())) {
        continue;
      }
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

  /** A comma-separated list of names, as sshare's -u and -A take. */
  private static Set<String> names(String list) {
    Set<String> out = new TreeSet<>();
    for (String n : list.split(",")) {
      if (!n.isBlank()) {
        out.add(n.trim());
      }
    }
    return out;
  }

  private static boolean flag(String name, String value) {
    if (value == null || value.equals("false")) {
      return false;
    }
    if (value.isEmpty() || value.equals("true")) {
      return true;
    }
    throw ApiException.badRequest(name + "=" + TextRules.quoted(value) + ": true or false");
  }
}
