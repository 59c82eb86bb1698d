package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hard budget in the service: account {@code research} may spend $6 and $3 softly; a node
 * costs $36 an hour ($4.50 per GPU-hour). alice's 8-GPU job with a 10 min limit may cost $6 at
 * worst: it starts, and bob's job waits for it with AssocGrpBillingMinutes though a node is free.
 * Once it has cost $6 the budget is spent: alerts at 50 % and 100 % (stored, and POSTed to the
 * webhook), and bob's job still waits.
 */
class BudgetTest {
  private static final Duration LONG = Duration.ofSeconds(90);

  @TempDir
  Path dir;
  private HttpServer webhook;
  private final List<String> posted = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void startWebhook() throws IOException {
    webhook = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    webhook.createContext("/alerts", ex -> {
      try (ex) {
        posted.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        ex.sendResponseHeaders(204, -1);
      }
    });
    webhook.start();
  }

  @AfterEach
  void stopWebhook() {
    webhook.stop(0);
  }

  private static String state(Http h, String job) {
    return h.get("admin-token", "/v1/jobs/" + job).json().get("state").asText();
  }

  @Test
  void noJobStartsPastTheHardLimitOrWhenItsWorstCaseDoesNotFit() throws IOException {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.ticks", "manual");
    s.put("squall.node-timeout", "30m"); // the clock jumps ahead of the agents' real heartbeats
    s.put("squall.partitions.gpu.nodes", "cloud-[1-2]");
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.local.on-demand-price", 36);
    s.put("squall.accounts.research.soft-limit-usd", 3);
    s.put("squall.accounts.research.hard-limit-usd", 6);
    s.put("squall.accounts.research.budget-alerts", List.of(50, 100));
    s.put("squall.budget-interval", "1s");
    s.put("squall.budget-webhook", "http://127.0.0.1:" + webhook.getAddress().getPort() + "/alerts");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      String job1 = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 -t 10 --output=/dev/null\n"
          + "while [ ! -e " + dir.resolve("go") + " ]; do sleep 0.1; done\n"));
      String job2 = h.postScript("bob-token", "/v1/jobs", "#!/bin/bash\n#SBATCH --gres=gpu:8 -t 10 --output=/dev/null\n"
          + "true\n").json().get("job_id").asText();
      time.tick();
      time.tickAfter(Duration.ofSeconds(1)); // prices listed by now: job 1's worst case is known
      time.tickAfter(Duration.ofSeconds(1));
      Poll.until("job 1 running", LONG, () -> {
        time.tick();
        return state(h, job1).equals("RUNNING") ? true : null;
      });
      // --test-only: 4 GPUs for an hour at $4.50 (only on demand here), and the budget's verdict.
      JsonNode probe = h.postScript("alice-token", "/v1/jobs?test_only=true",
          "#!/bin/bash\n#SBATCH --gres=gpu:4 -t 60\ntrue\n").json();
      assertThat(probe.get("cost_usd_min").asDouble()).isEqualTo(18.0);
      assertThat(probe.get("cost_usd_max").asDouble()).isEqualTo(18.0);
      assertThat(probe.get("reason").asText()).isEqualTo("AssocGrpBillingMinutes");
      JsonNode waiting = h.get("admin-token", "/v1/jobs/" + job2).json();
      assertThat(waiting.get("state").asText()).isEqualTo("PENDING");
      assertThat(waiting.get("reason").asText()).isEqualTo("AssocGrpBillingMinutes");

      time.clock().advance(Duration.ofMinutes(10)); // the instance has billed since the clock stood here
      Files.createFile(dir.resolve("go"));
      Poll.until("job 1 done", LONG, () -> state(h, job1).equals("COMPLETED") ? true : null);
      time.tickAfter(Duration.ofSeconds(1)); // spend added up again

      double cost = h.get("admin-token", "/v1/accounting?job=" + job1).json().get("jobs").get(0).get("cost_usd")
          .asDouble();
      assertThat(cost).isCloseTo(6.0, within(1e-4)); // 600 s of the whole node at $0.01/s
      JsonNode budget = h.get("admin-token", "/v1/budgets").json().get("budgets").get(0);
      assertThat(budget.get("account").asText()).isEqualTo("research");
      assertThat(budget.get("spent_usd").asDouble()).isCloseTo(cost, within(1e-4));
      assertThat(budget.get("state").asText()).isEqualTo("hard-limit");
      assertThat(budget.get("alerts").findValuesAsText("percent")).containsExactly("50", "100");
      assertThat(h.get("admin-token", "/v1/jobs/" + job2).json().get("reason").asText())
          .isEqualTo("AssocGrpBillingMinutes");
      Poll.until("both alerts posted", LONG, () -> posted.size() == 2 ? true : null);
      // Posted off the scheduling thread, each on its own: in either order.
      assertThat(posted).allMatch(p -> p.contains("\"account\":\"research\""))
          .anyMatch(p -> p.contains("\"percent\":50,")).anyMatch(p -> p.contains("\"percent\":100,"));
      String metrics = h.get("admin-token", "/prometheus").body();
      assertThat(metrics).contains("squall_account_spend_usd{account=\"research\"}")
          .contains("squall_account_budget_usd{account=\"research\",limit=\"hard\"} 6.0");

      assertThat(h.get("bob-token", "/v1/budgets").json().get("budgets")).hasSize(1); // bob's own account's
      time.tickAfter(Duration.ofSeconds(5)); // alerts are raised once
      assertThat(h.get("admin-token", "/v1/budgets").json().get("budgets").get(0).get("alerts")).hasSize(2);
    }
  }

  /**
   * Past its soft limit ($0 here: at once) the account's jobs run on spot only: in a partition
   * that buys on demand only, the job's node is not launched, and the job says why.
   */
  @Test
  void pastTheSoftLimitAJobsNodesAreBoughtAsSpotOnly() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.ticks", "manual");
    s.put("squall.partitions.gpu.nodes", "cloud-1");
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.partitions.gpu.spot", "on-demand");
    s.put("squall.local.on-demand-price", 36);
    s.put("squall.local.spot-price", 12);
    s.put("squall.accounts.research.soft-limit-usd", 0);
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      String job = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 -t 10 --output=/dev/null\ntrue\n"));
      time.tick();
      time.tickAfter(Duration.ofSeconds(1));
      time.tickAfter(Duration.ofSeconds(1));
      assertThat(h.get("admin-token", "/v1/budgets").json().get("budgets").get(0).get("state").asText())
          .isEqualTo("soft-limit");
      JsonNode j = h.job(job);
      assertThat(j.get("state").asText()).isEqualTo("CONFIGURING");
      assertThat(j.get("reason").asText()).isEqualTo(
          "waiting for capacity: spot only (the account is past its soft budget), and partition gpu buys on-demand only");
      assertThat(h.get("admin-token", "/v1/launches").json().get("launches")).isEmpty();
    }
  }
}
