package io.squall.api.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The what-if report for two configurations: names from users escaped, the charts' data, a missing library said. */
class WhatIfReportTest {
  private static final int SAMPLES = 36;
  /** Names from users, made to break a page that pastes them in as HTML, JSON or a script. */
  private static final String TITLE = "Spot first or on demand? <script>document.title='pwned'</script>";
  private static final String HOSTILE_ACCOUNT = "</script><img src=x onerror=\"document.title='pwned'\">";
  private static final String HOSTILE_CONFIGURATION = "on-demand <b>&amp;</b>.yml";

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
}
