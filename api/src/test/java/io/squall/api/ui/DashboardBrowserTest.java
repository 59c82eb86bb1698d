package io.squall.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.api.Controllers;
import io.squall.api.FakeAgent;
import io.squall.api.HeadlessChromium;
import io.squall.api.Http;
import io.squall.api.ManualTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless Chromium (Debian's, through its chromedriver) against the real
 * service with an elastic partition of local nodes running real agents: what a person sees at
 * {@code /ui} as jobs are submitted, run, are interrupted, and as nodes are launched, and that one
 * user does not see another's jobs. The controller runs on a manual clock: every wait on the
 * browser moves it on 100 ms and ticks, so the page's views follow the controller's decisions, and
 * nothing is slept for. Each test leaves a screenshot in {@code target/ui-screenshots/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardBrowserTest {
  private static final Duration LONG = Duration.ofSeconds(120);
  private static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");
  private static final Duration BATCH_WINDOW = Duration.ofMillis(200);

  @TempDir Path dir;
  private Controllers.Running controller;
  private Http http;
  private ManualTime time;
  private ChromeDriver browser;

  /** An elastic partition of 4 local nodes, on demand at $40 a node-hour; research has a budget. */
  private Map<String, Object> settings(Path data) {
    Map<String, Object> s = Controllers.elasticSettings(data, "cloud-[1-4]", BATCH_WINDOW);
    s.put("squall.partitions.gpu.suspend-time", "1h");
    s.put("squall.partitions.gpu.interruption-margin", "2s");
    s.put("squall.local.on-demand-price", 40);
    s.put("squall.accounts.research.soft-limit-usd", 500);
    s.put("squall.accounts.research.hard-limit-usd", 1000);
    s.put("squall.utilisation.interval", "1s");
    s.put("squall.reconcile-interval", "1s");
    return s;
  }

  @BeforeAll
  void startTheService(@TempDir Path data) {
    controller = Controllers.start(settings(data));
    http = new Http(controller.url());
    time = ManualTime.of(controller);
  }

  @AfterAll
  void stopTheService() {
    if (controller != null) {
      controller.close();
    }
  }

  @AfterEach
  void screenshotAndQuit(TestInfo test) {
    if (browser != null) {
      try {
        HeadlessChromium.screenshot(browser, SCREENSHOTS.resolve(test.getTestMethod().orElseThrow().getName() + ".png"));
        assertThat(browser.executeScript("return window.__problems")).as("script errors and blocked requests")
            .asInstanceOf(InstanceOfAssertFactories.LIST).isEmpty();
      } finally {
        browser.quit();
        browser = null;
      }
    }
  }

  /** Opens the dashboard of {@code c} and signs in with {@code token} as a person would. */
  private void open(Controllers.Running c, String token, String view) {
    browser = HeadlessChromium.start();
    browser.get(c.url() + "/ui#" + view);
    WebElement field = waitFor("the sign-in form", b -> visible(b, "#token"));
    field.sendKeys(token);
    browser.findElement(By.cssSelector("#sign-in button[type=submit]")).click();
    waitFor("signed in", b -> b.findElement(By.id("who")).getText().isEmpty() ? null : true);
  }

  private static WebElement visible(ChromeDriver b, String css) {
    List<WebElement> found = b.findElements(By.cssSelector(css));
    return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
  }

  /** Waits on the page, moving the controller's clock on 100 ms and ticking before each look. */
  private <T> T waitFor(String what, Function<ChromeDriver, T> condition) {
    return waitFor(time, what, condition);
  }

  private <T> T waitFor(ManualTime clock, String what, Function<ChromeDriver, T> condition) {
    return new WebDriverWait(browser, LONG, Duration.ofMillis(200)).withMessage(what).until(d -> {
      clock.tickAfter(Duration.ofMillis(100));
      return condition.apply(browser);
    });
  }

  /**
   * The text of the first element {@code css} finds, "" when none does. Read in one script: the
   * page rebuilds what it shows at every update, so an element found first and read after may be gone.
   */
  private String text(String css) {
    return (String) browser.executeScript(
        "var e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css);
  }

  /** The timeline's states, in order. */
  @SuppressWarnings("unchecked")
  private List<String> timeline() {
    return (List<String>) browser.executeScript("return Array.from(document.querySelectorAll('#job-timeline li'))"
        + ".map(function (li) { return li.dataset.state; })");
  }

  /** Whether the page shows an element {@code css} finds. */
  private boolean shows(String css) {
    return (Boolean) browser.executeScript(
        "var e = document.querySelector(arguments[0]); return !!e && e.offsetParent !== null;", css);
  }

  /** A job that runs until the test creates {@code go} in the test's directory. */
  private String untilGo(String name, String gres) {
    return "#!/bin/bash\n#SBATCH -J " + name + " -t 60 --gres=gpu:" + gres + " --output=" + dir.resolve(name + "-%j.out")
        + "\ntrap '' USR1\necho \"" + name + " run $SLURM_RESTART_COUNT\"\n"
        + "while [ ! -e " + dir.resolve(name + ".go") + " ]; do sleep 0.1; done\necho " + name + " done\n";
  }

  /** The interruption feed's rows, as text. */
  @SuppressWarnings("unchecked")
  private List<String> feed() {
    return (List<String>) browser.executeScript("return Array.from(document.querySelectorAll("
        + "'#interruptions-table .tabulator-row')).map(function (r) { return r.innerText; })");
  }

  /** A job that waits, held, until it is released. */
  private static String held(String name) {
    return "#!/bin/bash\n#SBATCH -J " + name + " -t 60 --hold --gres=gpu:1 --output=/dev/null\necho never\n";
  }

  /** The text of the queue's row for the job, or null when the queue does not show it. */
  private String queueRow(long id) {
    return (String) browser.executeScript("""
        var rows = document.querySelectorAll('#queue-table .tabulator-row');
        for (var i = 0; i < rows.length; i++) {
          if (Array.from(rows[i].querySelectorAll('a')).some(function (a) { return a.textContent === arguments[0]; })) {
            return rows[i].innerText;
          }
        }
        return null;
        """.replace("arguments[0]", "'" + id + "'"));
  }

  @Test
  void aSubmittedJobAppearsInTheQueueWithItsReasonInWordsAndIsCancelledFromItsPage() {
    long id = http.submit(held("waiting"));
    open(controller, "alice-token", "queue");
    String mine = waitFor("job " + id + " in the queue", b -> queueRow(id));
    assertThat(mine).contains("waiting", "alice", "research", "PENDING", "(JobHeldUser)",
        "held by its user (release it to let it start)");
    // The filters are the API's: a state it is not in leaves it out, without a reload.
    new org.openqa.selenium.support.ui.Select(browser.findElement(By.cssSelector("#queue-filters select[name=state]")))
        .selectByVisibleText("RUNNING");
    waitFor("the filter applied", b -> queueRow(id) == null);
    new org.openqa.selenium.support.ui.Select(browser.findElement(By.cssSelector("#queue-filters select[name=state]")))
        .selectByVisibleText("any");

    // Its page: the actions the API allows, each as the API does it.
    waitFor("job " + id + " in the queue again", b -> queueRow(id));
    browser.get(controller.url() + "/ui#job/" + id); // as its link goes
    waitFor("its page", b -> text("#job-title").startsWith("Job " + id) ? true : null);
    assertThat(browser.findElement(By.cssSelector("#job-actions [data-action=release]")).isEnabled()).isTrue();
    browser.findElement(By.cssSelector("#job-actions [data-action=cancel]")).click();
    waitFor("cancelled", b -> timeline().contains("CANCELLED") ? true : null);
    assertThat(http.jobState(id)).isEqualTo("CANCELLED");
    assertThat(text("#job-action-result")).isEqualTo("cancel: done");
  }

  @Test
  void aJobsTimelineShowsItRunningThenCompletedWithItsOutput() throws Exception {
    long id = http.submit(untilGo("train", "1"));
    open(controller, "alice-token", "job/" + id);
    waitFor("RUNNING on the timeline", b -> timeline().contains("RUNNING") ? true : null);
    assertThat(timeline()).startsWith("PENDING");
    assertThat(text("#job-summary")).contains("RUNNING", "alice / research");
    waitFor("the allocation", b -> text("#job-allocation").contains("cloud-") ? true : null);
    waitFor("the output so far", b -> text("#job-output").contains("train run 0") ? true : null);
    Files.createFile(dir.resolve("train.go"));
    waitFor("COMPLETED on the timeline", b -> timeline().contains("COMPLETED") ? true : null);
    assertThat(timeline()).containsSubsequence("PENDING", "RUNNING", "COMPLETED");
    waitFor("the rest of the output", b -> text("#job-output").contains("train done") ? true : null);
    // Each change comes with its reason, in order.
    assertThat(browser.findElements(By.cssSelector("#job-timeline li .reason"))).hasSize(timeline().size());
    assertThat(text("#job-cost")).contains("cost", "$");
  }

  @Test
  void anInjectedInterruptionShowsOnTheJobsTimelineAndInTheFeed() throws Exception {
    long id = http.submit(untilGo("spot", "1"));
    JsonNode running = time.until("job " + id + " running", LONG, () -> {
      JsonNode j = http.job(id);
      return j.get("state").asText().equals("RUNNING") ? j : null;
    });
    String node = running.get("nodes").asText();
    Http.Answer a = http.post("admin-token", "/v1/nodes/" + node + "/interrupt", Map.of("notice_seconds", 3));
    assertThat(a.status()).as(a.body()).isEqualTo(202);
    open(controller, "alice-token", "job/" + id);
    waitFor("PREEMPTED on the timeline", b -> timeline().contains("PREEMPTED") ? true : null);
    assertThat(timeline()).containsSubsequence("RUNNING", "PREEMPTED", "PENDING");
    waitFor("the interruption on its page", b -> text("#job-interruptions").contains(node) ? true : null);

    browser.findElement(By.cssSelector("#nav a[data-view=interruptions]")).click();
    waitFor("the interruption in the feed, with its outcome", b -> feed().stream().anyMatch(r -> r.contains(node)
        && r.contains(String.valueOf(id)) && r.contains("OPERATOR") && r.contains("requeued")) ? true : null);
    Files.createFile(dir.resolve("spot.go"));
  }

  /** With agents that never come up by themselves, the test says when a node has booted. */
  @Test
  void theFleetShowsAnElasticNodeGoingFromCloudToPoweringUpToAllocated(@TempDir Path data) {
    Map<String, Object> s = settings(data);
    s.put("squall.local.boot-delay", "10m");
    // Not about money: no budget to hold the job back.
    s.remove("squall.accounts.research.soft-limit-usd");
    s.remove("squall.accounts.research.hard-limit-usd");
    try (Controllers.Running fleet = Controllers.start(s); FakeAgent agent = new FakeAgent()) {
      Http h = new Http(fleet.url());
      ManualTime clock = ManualTime.of(fleet);
      open(fleet, "admin-token", "fleet");
      waitFor(clock, "four powered-down nodes", b -> (Long) b.executeScript(
          "return document.querySelectorAll('#fleet-partitions .node[data-state=CLOUD]').length") == 4 ? true : null);
      long id = h.submit("#!/bin/bash\n#SBATCH -t 60 --gres=gpu:8 --output=/dev/null\necho ok\n");
      clock.allocateAndLaunch(BATCH_WINDOW);
      String node = DashboardApiTest.poweringUp(h);
      String poweringUp = "#fleet-partitions .node[data-node='" + node + "'][data-state=POWERING_UP]";
      waitFor(clock, node + " powering up", b -> shows(poweringUp) ? true : null);
      assertThat(text(poweringUp)).contains(node, "POWERING_UP", "ON_DEMAND", "in local", "$40.00 an hour");
      waitFor(clock, "the launch and its instance", b -> text("#fleet-launches").contains("LAUNCHED")
          && text("#fleet-instances").contains(node) ? true : null);
      agent.register(h, node);
      String allocated = "#fleet-partitions .node[data-node='" + node + "'][data-state=ALLOCATED]";
      waitFor(clock, node + " allocated", b -> shows(allocated) ? true : null);
      assertThat(text(allocated)).contains("8 / 8", "jobs " + id);
    }
  }

  @Test
  void theMoneyChartHasPointsAndTheBudget() throws Exception {
    long id = http.submit(untilGo("costly", "8"));
    time.until("job " + id + " running", LONG, () -> http.jobState(id).equals("RUNNING") ? true : null);
    time.tickAfter(Duration.ofMinutes(15)); // 15 minutes of a $40 node: $10
    Files.createFile(dir.resolve("costly.go"));
    time.until("job " + id + " done", LONG, () -> http.jobState(id).equals("COMPLETED") ? true : null);
    open(controller, "alice-token", "money");
    String burndown = "#money-burndown figure[data-account=research] .chart";
    waitFor("the burn-down drawn", b -> shows(burndown) ? true : null);
    @SuppressWarnings("unchecked")
    Map<String, Object> drawn = (Map<String, Object>) browser.executeScript("""
        var option = echarts.getInstanceByDom(document.querySelector(arguments[0])).getOption();
        return {names: option.series.map(function (s) { return s.name; }),
                points: option.series[0].data.length,
                last: option.series[0].data[option.series[0].data.length - 1][1],
                budgets: option.series[0].markLine.data.length};
        """, burndown);
    assertThat(drawn).containsEntry("names", List.of("spent", "left of the budget")).containsEntry("points", 49L)
        .containsEntry("budgets", 2L);
    assertThat(((Number) drawn.get("last")).doubleValue()).isGreaterThanOrEqualTo(10.0);
    assertThat(text("#money-burndown figcaption")).startsWith("research: $").endsWith("of $1000.00");
    assertThat(text("#money-figures")).contains("saved by spot");
    Object pie = browser.executeScript("return echarts.getInstanceByDom(document.getElementById('money-capacity'))"
        + ".getOption().series[0].data.map(function (d) { return d.name; })");
    assertThat(pie).isEqualTo(List.of("spot", "on_demand"));
  }

  @Test
  void oneUserDoesNotSeeAnothersJob() {
    long alices = http.submit(held("alices"));
    Http.Answer submitted = http.postScript("bob-token", "/v1/jobs", held("bobs"));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    long bobs = submitted.json().get("job_id").asLong();
    open(controller, "bob-token", "queue");
    waitFor("bob's job in his queue", b -> queueRow(bobs));
    assertThat(queueRow(alices)).isNull();
    assertThat(text("#queue-table")).doesNotContain("alices");
    assertThat(text("#who")).startsWith("bob");
    // Asked for by its address, the job is what the API says it is to bob: not there.
    browser.get(controller.url() + "/ui#job/" + alices);
    waitFor("the API's answer shown", b -> text("#view-job .error").contains("404") ? true : null);
    assertThat(text("#job-title")).doesNotContain(String.valueOf(alices));
    http.delete("alice-token", "/v1/jobs/" + alices);
    http.delete("bob-token", "/v1/jobs/" + bobs);
  }
}
