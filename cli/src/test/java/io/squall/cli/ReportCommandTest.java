package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReportCommandTest {
  private static final String REPORT = """
      {"since":"2026-11-01T00:00:00Z","until":"2026-11-24T12:00:00Z","by":"account","account":null,
       "rows":[
         {"account":"ml","jobs":3,"gpu_hours":120.5,"cost_usd":300.1234,"on_demand_usd":1200.0,"savings_usd":899.8766,
          "savings_pct":75.0,"lost_usd":4.5},
         {"account":"vision, west","jobs":1,"gpu_hours":8.0,"cost_usd":20.0,"on_demand_usd":null,"savings_usd":null,
          "savings_pct":null,"lost_usd":0.0}],
       "overhead":[{"partition":"gpu","usd":12.5}],
       "totals":{"jobs":4,"gpu_hours":128.5,"cost_usd":320.1234,"on_demand_usd":null,"savings_usd":null,
          "savings_pct":null,"lost_usd":4.5,"overhead_usd":12.5,"billed_usd":332.6234}}""";

  private final FakeSquall fake = FakeSquall.start().on("GET", "/v1/reports/cost", 200, REPORT);
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void aTableWithTotalsOverheadAndBilled() {
    Cli.Result r = cli.run("report", "cost");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("""
        Cost from 2026-11-01T00:00:00Z until 2026-11-24T12:00:00Z
        ACCOUNT       JOBS  GPU-HOURS  COST-USD  ON-DEMAND-USD  SAVINGS-USD  SAVINGS-%  LOST-USD
        ml               3     120.50    300.12        1200.00       899.88      75.00      4.50
        vision, west     1       8.00     20.00              -            -          -      0.00
        TOTAL            4     128.50    320.12              -            -          -      4.50
        Overhead (billed time no job held): 12.50 USD (gpu 12.50)
        Billed: 332.62 USD
        """);
    assertThat(fake.last().query()).isEmpty();
  }

  @Test
  void csvQuotesCellsWithCommasAndTimesAreSentAsInstants() {
    Cli.Result r = cli.zone("UTC").run("report", "cost", "--since", "2026-11-01", "--until", "2026-11-15T12:00",
        "--account", "ml", "--by", "user", "--format", "csv");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(fake.last().query()).containsEntry("since", "2026-11-01T00:00:00Z")
        .containsEntry("until", "2026-11-15T12:00:00Z").containsEntry("account", "ml").containsEntry("by", "user");
    // The service's own grouping decides the first column: here the fake answers by account.
    assertThat(r.out()).isEqualTo("""
        account,jobs,gpu_hours,cost_usd,on_demand_usd,savings_usd,savings_pct,lost_usd
        ml,3,120.50,300.12,1200.00,899.88,75.00,4.50
        "vision, west",1,8.00,20.00,,,,0.00
        total,4,128.50,320.12,,,,4.50
        """);
  }

  @Test
  void jsonIsTheServicesAnswer() {
    Cli.Result r = cli.run("report", "cost", "--format=json");
    assertThat(r.out()).contains("\"billed_usd\" : 332.6234");
  }

  @Test
  void badArgumentsAreUsageErrorsAndTheServicesRefusalIsPrinted() {
    assertThat(cli.run("report").err()).contains("which report? (squall report cost)");
    assertThat(cli.run("report", "spend").err()).contains("unknown report 'spend' (reports: cost)");
    assertThat(cli.run("report", "cost", "--format", "xml").err()).contains("--format=xml: expected table, csv or json");
    assertThat(cli.run("report", "cost", "--since", "yesterdayish").exit()).isNotZero();
    fake.on("GET", "/v1/reports/cost", 400, "{\"error\":\"by=week: expected user, account, partition or day\"}");
    Cli.Result r = cli.run("report", "cost", "--by", "week");
    assertThat(r.exit()).isNotZero();
    assertThat(r.err()).contains("by=week: expected user, account, partition or day");
  }
}
