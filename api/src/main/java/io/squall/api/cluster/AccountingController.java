package io.squall.api.cluster;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.squall.api.agents.BatchEnvironment;
import io.squall.api.auth.Caller;
import io.squall.api.config.SquallConfig;
import io.squall.api.jobs.JobCommands;
import io.squall.api.money.Costs;
import io.squall.api.money.Usd;
import io.squall.api.state.JobHistory;
import io.squall.api.state.StoredJob;
import io.squall.api.store.InterruptionRepository;
import io.squall.api.store.InterruptionRow;
import io.squall.api.web.TimeParameter;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.money.Charges;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** {@code GET /v1/accounting}: jobs that ran in a time window, with elapsed time and GPU-hours, like sacct. */
@Controller("/v1/accounting")
@Tag(name = "accounting")
public final class AccountingController {
  private final JobHistory history;
  private final InstantSource clock;
  private final SquallConfig config;
  private final InterruptionRepository interruptions;
  private final Costs costs;
  private final AccountingDetail detail;

  public AccountingController(JobHistory history, InstantSource clock, SquallConfig config,
      InterruptionRepository interruptions, Costs costs, AccountingDetail detail) {
    this.costs = costs;
    this.detail = detail;
    this.history = history;
    this.interruptions = interruptions;
    this.clock = clock;
    this.config = config;
  }

  @Operation(summary = "Running and finished jobs overlapping [start, end]; default: since midnight today")
  @Get
  public Map<String, Object> accounting(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
      @Nullable @QueryValue String user, @Nullable @QueryValue String account, @Nullable @QueryValue String job,
      @Nullable @QueryValue String start, @Nullable @QueryValue String end, @Nullable @QueryValue String state) {
    Instant now = clock.instant();
    Instant from = start == null ? LocalDate.now(clock.withZone(config.zoneId())).atStartOfDay(config.zoneId()).toInstant()
        : TimeParameter.parse("start", start, config.zoneId());
    Instant to = end == null ? now : TimeParameter.parse("end", end, config.zoneId());
    Set<String> states = state == null ? Set.of() : Set.of(state.toUpperCase(Locale.ROOT).split(","));
    List<StoredJob> listed = new ArrayList<>();
    // From the database, as sacct reads slurmdbd's: finished jobs leave the controller's memory.
    for (StoredJob s : job == null ? history.ranBetween(from, to) : history.named(JobCommands.parseJobId(job))) {
      Job j = s.job();
      if (j.startTime() == null || !caller.mayControl(j.user())
          || user != null && !Set.of(user.split(",")).contains(j.user())
          || account != null && !j.account().equals(account)
          || !states.isEmpty() && !states.contains(j.state().name())
          || j.startTime().isAfter(to)
          || j.endTime() != null && j.endTime().isBefore(from)) {
        continue;
      }
      listed.add(s);
    }
    // A job holds nodes, and is interrupted, only after its submission: reading money and
    // interruptions from the earliest one listed gives each job all of its own, whatever the history.
    Instant since = listed.stream().map(s -> s.job().submitTime()).min(Instant::compareTo).orElse(now);
    since = since.isAfter(now) ? now : since;
    // GPU time interruptions cost each job (since its last checkpoint), summed over its restarts.
    Map<String, Double> lost = new HashMap<>();
    for (InterruptionRow r : interruptions.findNoticedSince(since)) {
      if (r.jobKey() != null && r.lostGpuSeconds() != null) {
        lost.merge(r.jobKey(), r.lostGpuSeconds(), Double::sum);
      }
    }
    Costs.Period money = costs.between(since, now);
    List<Map<String, Object>> out = new ArrayList<>();
    for (StoredJob s : listed) {
      Map<String, Object> row = row(s, now);
      row.putAll(detail.of(s));
      row.put("lost_gpu_hours", Math.round(lost.getOrDefault(s.key().toString(), 0.0) / 3600 * 1000) / 1000.0);
      money(row, money, s.key().toString());
      out.add(row);
    }
    return Map.of("jobs", out);
  }

  /** What the job's holds on billed instances cost (0 on static nodes, which bill nothing), and what they were. */
  private static void money(Map<String, Object> row, Costs.Period money, String key) {
    Charges.JobCharge c = money.charges().jobs().get(key);
    row.put("cost_usd", c == null ? 0.0 : Usd.round(c.usd()));
    row.put("on_demand_usd", c == null ? 0.0 : Usd.roundOrNull(c.onDemandUsd()));
    row.put("lost_usd", Usd.round(money.lostUsd().getOrDefault(key, 0.0)));
    row.put("capacity_type", c == null ? null
        : String.join(",", c.capacityTypes().stream().map(Enum::name).sorted().toList()));
    row.put("instance_type", c == null ? null : String.join(",", c.instanceTypes().stream().sorted().toList()));
  }

  private static Map<String, Object> row(StoredJob s, Instant now) {
    Job j = s.job();
    Instant endOrNow = j.endTime() != null ? j.endTime() : now;
    long elapsed = Math.max(0, Duration.between(j.startTime(), endOrNow).toSeconds());
    List<String> nodes = new ArrayList<>();
    for (GpuGrant g : s.ranOn()) {
      nodes.add(g.node());
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("job_id", j.key().toString());
    m.put("job_id_raw", j.jobId());
    m.put("name", BatchEnvironment.jobName(s));
    m.put("user", j.user());
    m.put("account", j.account());
    m.put("partition", j.partition());
    m.put("state", j.state().name());
    m.put("exit_code", j.exitCode());
    m.put("exit_signal", s.exitSignal());
    m.put("submit_time", j.submitTime().toString());
    m.put("start_time", j.startTime().toString());
    m.put("end_time", j.endTime() == null ? null : j.endTime().toString());
    m.put("elapsed_seconds", elapsed);
    m.put("num_nodes", nodes.size());
    m.put("num_gpus", s.gpusRanOn());
    m.put("gpu_hours", Math.round(s.gpusRanOn() * elapsed / 3600.0 * 1000) / 1000.0);
    m.put("nodes", nodes.isEmpty() ? null : Hostlist.compress(nodes));
    m.put("restart_count", j.restartCount());
    return m;
  }
}
