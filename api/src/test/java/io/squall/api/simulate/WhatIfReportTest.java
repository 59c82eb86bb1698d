package io.squall.api.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.squall.api.HeadlessChromium;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The what-if report as a reader gets it: written for two configurations, opened from disk in a
 * real headless Chromium (Debian's, through its chromedriver), every chart drawn with its data,
 * the figures in a column per configuration, nothing fetched, and names from users shown as text.
 * The browser half skips itself where chromium is not installed ({@code .ci/run} installs it).
 */
class WhatIfReportTest {
  private static final int SAMPLES = 36;
  /** Names from users, made to break a page that pastes them in as HTML, JSON or a script. */
  private static final String TITLE = "Spot first or on demand? <script>document.title='pwned'</script>";
  private static final String HOSTILE_ACCOUNT = "</script><img src=x onerror=\"document.title='pwned'\">";
  private static final String HOSTILE_CONFIGURATION = "on-demand <b>&amp;</b>.yml";
  /** Where the browser test leaves its screenshot (and the page) for a person to look at. */
  private static final Path ARTIFACTS = Path.of("target", "report-screenshots");

  @TempDir
  Path dir;

  /** spot-first: a spot fleet, cheaper, waits longer; on-demand: the opposite. */
  private static List<ReportRun> runs() {
    return List.of(run("spot-first.yml", 1.0, true, List.of(0L, 0L, 60L, 600L, 3600L)),
        run(HOSTILE_CONFIGURATION, 1.6, false, List.of(0L, 0L, 0L, 30L, 120L)));
  }

  private static ReportRun run(String name, double priceFactor, boolean spot, List<Long> waits) {
    List<ReportRun.Sample> samples = new ArrayList<>();
    double vision = 0;
    double nlp = 0;
    double other = 0;
    for (int i = 0; i < SAMPLES; i++) {
      // On demand comes up at once and drains the queue sooner; spot capacity comes slowly.
      int nodes = spot ? Math.min(i / 2, Math.max(1, 8 - Math.abs(i - 20) / 3))
          : Math.max(1, 8 - Math.abs(i - 12) / 2);
      int queued = Math.max(0, 12 - i / (spot ? 3 : 2));
      vision += 40 * priceFactor * nodes / 8.0;
      nlp += 25 * priceFactor * nodes / 8.0;
      other += 5 * priceFactor;
      Map<String, Double> spent = new LinkedHashMap<>();
      spent.put("vision", vision);
      spent.put("nlp", nlp);
      if (i >= 2) {
        spent.put(HOSTILE_ACCOUNT, other); // it has spent nothing before
      }
      int spotNodes = spot ? nodes * 3 / 4 : 0;
      samples.add(new ReportRun.Sample(i * 0.5, queued, nodes * 8, spotNodes, nodes - spotNodes, spent));
    }
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("jobs", 5);
    figures.put("dollars_billed", Math.round(vision + nlp + other));
    figures.put("cost_ratio", spot ? 1.125 : 1.8);
    Map<String, Object> accounts = new LinkedHashMap<>();
    accounts.put(HOSTILE_ACCOUNT, account(other, null, null));
    accounts.put("nlp", account(nlp, null, 900.0));
    accounts.put("vision", account(vision, 400.0, 600.0));
    figures.put("accounts", accounts);
    return new ReportRun(name, figures, samples, waits);
  }

  private static Map<String, Object> account(double spent, Double soft, Double hard) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("spent_usd", Math.round(spent));
    if (hard != null) {
      a.put("soft_usd", soft);
      a.put("hard_usd", hard);
    }
    return a;
  }

  @Test
  void namesFromUsersAreEscapedAndNothingIsLoadedFromElsewhere() throws Exception {
    Path html = dir.resolve("report.html");
    WhatIfReport.write(html, TITLE, runs());
    String written = Files.readString(html);
    // The chart library's own text is ECharts', not ours: look at the rest of the page.
    String library = ChartLibrary.script(WhatIfReport.class.getClassLoader());
    assertThat(written).containsOnlyOnce(library.substring(0, 200));
    String page = written.replace(library, "");
    assertThat(page).contains(
        "<title>Spot first or on demand? &lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;</title>",
        "<th>on-demand &lt;b&gt;&amp;amp;&lt;/b&gt;.yml</th>", "&lt;/script&gt;&lt;img src=x onerror=&quot;");
    assertThat(page).doesNotContain("<b>", "<img", "<script>document", "<script src", "<link");
    assertThat(page).contains("content=\"default-src 'none'; ");
    // Once as the page's data, escaped for a script element: no name can end it early.
    String open = "<script type=\"application/json\" id=\"what-if-data\">";
    int start = page.indexOf(open) + open.length();
    String data = page.substring(start, page.indexOf("</script>", start));
    assertThat(data).contains("\\u003c/script\\u003e\\u003cimg src=x").doesNotContain("<", ">", "&");
    assertThat(page).containsOnlyOnce(open);
  }

  @Test
  void theChartLibraryMissingFromTheClassPathIsSaidAndNothingIsWritten() {
    Path html = dir.resolve("report.html");
    ClassLoader bare = new ClassLoader(null) { };
    assertThatThrownBy(() -> WhatIfReport.write(html, "t", runs(), bare))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("chart library (ECharts) is missing")
        .hasMessageContaining("org.webjars.npm:echarts");
    assertThat(html).doesNotExist();
  }

  @Test
  void aLimitTheConfigurationsDisagreeOnIsDrawnWithEachAndNamedAfterIt() {
    ReportRun tight = run("tight.yml", 1.0, true, List.of(0L));
    ReportRun loose = run("loose.yml", 1.0, true, List.of(0L));
    Map<String, Object> vision = new LinkedHashMap<>(Map.of("spent_usd", 10L, "soft_usd", 400.0, "hard_usd", 900.0));
    loose = new ReportRun(loose.name(), Map.of("accounts", Map.of("vision", vision)), loose.samples(), List.of(0L));
    WhatIfCharts.AccountCost cost = WhatIfCharts.of(List.of(tight, loose)).cost().stream()
        .filter(c -> c.account().equals("vision")).findFirst().orElseThrow();
    // The soft limit is the same: drawn once, unnamed; the hard ones differ: one each, named.
    assertThat(cost.lines().get(0).budgets()).containsExactly(new WhatIfCharts.BudgetLine("soft", 400, "soft budget"),
        new WhatIfCharts.BudgetLine("hard", 600, "hard budget (tight.yml)"));
    assertThat(cost.lines().get(1).budgets()).containsExactly(
        new WhatIfCharts.BudgetLine("hard", 900, "hard budget (loose.yml)"));
  }

  @Test
  void theWaitDistributionStepsAtEachDistinctWait() {
    assertThat(WhatIfCharts.waitDistribution(List.of(600L, 0L, 60L, 0L, 3600L)))
        .containsExactly(new double[] {0, 0.4}, new double[] {1, 0.6}, new double[] {10, 0.8}, new double[] {60, 1});
    assertThat(WhatIfCharts.waitDistribution(List.of(120L, 30L)))
        .containsExactly(new double[] {0, 0}, new double[] {0.5, 0.5}, new double[] {2, 1});
    assertThat(WhatIfCharts.waitDistribution(List.of())).isEmpty();
  }

  @Test
  void inChromiumEveryChartIsDrawnWithItsDataAndTheFiguresHaveAColumnPerConfiguration() throws Exception {
    Path html = dir.resolve("what-if report.html");
    List<ReportRun> runs = runs();
    WhatIfReport.write(html, TITLE, runs);

    ChromeDriver browser = HeadlessChromium.start();
    try {
      browser.get(html.toUri().toString());
      // Until every chart says it is drawn, or the page has gone wrong (then no need to wait on).
      new WebDriverWait(browser, Duration.ofSeconds(60)).until(d -> (Boolean) browser.executeScript(
          "return document.body.dataset.chartsRendered !== undefined || window.__problems.length > 0"));
      assertThat(browser.executeScript("return window.__problems")).asInstanceOf(InstanceOfAssertFactories.LIST)
          .isEmpty();
      assertThat(browser.executeScript("return document.body.dataset.chartsRendered")).isEqualTo("8");
      assertThat(browser.getTitle()).isEqualTo(TITLE);
      assertThat(browser.findElements(By.cssSelector("img, b"))).isEmpty();
      // Offline: no element names a resource, and the browser fetched none.
      assertThat(browser.findElements(By.cssSelector("[src], link[href]"))).isEmpty();
      assertThat((Long) browser.executeScript("return performance.getEntriesByType('resource').length")).isZero();

      List<Chart> charts = charts(browser);
      int configurations = runs.size();
      assertThat(charts).extracting(Chart::kind).containsExactly("cost", "cost", "cost", "queued", "running-gpus",
          "nodes", "nodes", "waits");
      assertThat(charts).extracting(Chart::caption).containsExactly("Cost: " + HOSTILE_ACCOUNT, "Cost: nlp",
          "Cost: vision", "Queue length (pending jobs)", "Running GPUs", "Nodes by capacity type: spot-first.yml",
          "Nodes by capacity type: " + HOSTILE_CONFIGURATION, "Wait before the first run (cumulative)");
      for (Chart c : charts) {
        assertThat(c.width()).as(c.caption()).isPositive();
        assertThat(c.height()).as(c.caption()).isPositive();
        assertThat(c.inked()).as("pixels drawn in " + c.caption()).isGreaterThan(1000);
        if (!c.kind().equals("waits")) {
          assertThat(c.seriesPoints()).as(c.caption()).hasSize(configurations).containsOnly((long) SAMPLES);
        }
      }
      // Budget lines: vision has a soft and a hard limit, nlp a hard one, the third none; the
      // configurations agree on them, so each is drawn once.
      assertThat(charts.subList(0, 3)).extracting(Chart::budgetLines)
          .containsExactly(List.of(0L, 0L), List.of(1L, 0L), List.of(2L, 0L));
      assertThat(charts.get(5).seriesNames()).containsExactly("spot", "on-demand");
      assertThat(charts.get(7).seriesNames()).containsExactly("spot-first.yml", HOSTILE_CONFIGURATION);
      assertThat(browser.executeScript("return echarts.getInstanceByDom(document.querySelectorAll('.chart')[7])"
          + ".getOption().series.map(function (s) { return s.data; })"))
          .isEqualTo(List.of(
              List.of(List.of(0L, 0.4), List.of(1L, 0.6), List.of(10L, 0.8), List.of(60L, 1L)),
              List.of(List.of(0L, 0.6), List.of(0.5, 0.8), List.of(2L, 1L))));

      // A tooltip names the configurations as text: ECharts escapes what it shows as HTML.
      Object tooltip = browser.executeScript("""
          var el = document.querySelectorAll('.chart')[3];
          echarts.getInstanceByDom(el).dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: 10});
          var seen = {bold: el.querySelectorAll('b').length, text: el.textContent};
          echarts.getInstanceByDom(el).dispatchAction({type: 'hideTip'});
          return seen;
          """);
      assertThat(tooltip).asInstanceOf(InstanceOfAssertFactories.MAP)
          .containsEntry("bold", 0L).extractingByKey("text").asString().contains(HOSTILE_CONFIGURATION);

      List<WebElement> header = browser.findElements(By.cssSelector("#figures thead th"));
      assertThat(header).extracting(WebElement::getText)
          .containsExactly("figure", "spot-first.yml", HOSTILE_CONFIGURATION);
      List<WebElement> rows = browser.findElements(By.cssSelector("#figures tbody tr"));
      assertThat(rows).hasSize(3 + 7); // jobs, dollars, ratio; the accounts' 1 + 3 + 3 figures
      for (WebElement row : rows) {
        assertThat(row.findElements(By.cssSelector("th"))).hasSize(1);
        assertThat(row.findElements(By.cssSelector("td"))).hasSize(configurations);
      }
      assertThat(rows.get(2).getText()).isEqualTo("cost_ratio 1.125 1.8");
      assertThat(rows.get(9).getText()).isEqualTo("accounts \u203a vision \u203a hard_usd 600 600");

      screenshot(browser, html);
    } finally {
      browser.quit();
    }
  }

  /** One chart as the browser drew it. */
  record Chart(String kind, String caption, long width, long height, long inked, List<String> seriesNames,
      List<Long> seriesPoints, List<Long> budgetLines) {}

  @SuppressWarnings("unchecked")
  private static List<Chart> charts(ChromeDriver browser) {
    List<Map<String, Object>> raw = (List<Map<String, Object>>) browser.executeScript("""
        return Array.from(document.querySelectorAll('.chart')).map(function (el) {
          var option = echarts.getInstanceByDom(el).getOption();
          var canvas = el.querySelector('canvas');
          var pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          var inked = 0;
          for (var i = 3; i < pixels.length; i += 4) { if (pixels[i] > 0) { inked++; } }
          return {
            kind: el.dataset.chart,
            caption: el.parentElement.querySelector('figcaption').textContent,
            width: canvas.width, height: canvas.height, inked: inked,
            names: option.series.map(function (s) { return s.name; }),
            points: option.series.map(function (s) { return s.data.length; }),
            budgets: option.series.map(function (s) {
              return s.markLine && s.markLine.data ? s.markLine.data.length : 0;
            })
          };
        });
        """);
    return raw.stream().map(m -> new Chart((String) m.get("kind"), (String) m.get("caption"), (Long) m.get("width"),
        (Long) m.get("height"), (Long) m.get("inked"), (List<String>) m.get("names"), (List<Long>) m.get("points"),
        (List<Long>) m.get("budgets"))).toList();
  }

  /** The whole page, not only the window, for a person to look at; the page beside it. */
  private static void screenshot(ChromeDriver browser, Path html) throws Exception {
    HeadlessChromium.screenshot(browser, ARTIFACTS.resolve("what-if-report.png"));
    Files.copy(html, ARTIFACTS.resolve("what-if-report.html"), StandardCopyOption.REPLACE_EXISTING);
  }
}
