package io.squall.core.money;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Account;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import io.squall.core.provider.CapacityType;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BudgetsTest {
  private static final List<Account> ACCOUNTS = List.of(new Account("ml", null, 1),
      new Account("ml-vision", "ml", 1), new Account("ml-vision-eu", "ml-vision", 1), new Account("research", null, 1));
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  @Test
  void spendRollsUpIntoTheTeamOverEachBudgetsOwnPeriod() {
    Budgets b = new Budgets(List.of(new Budget("ml", 800.0, 1000.0, BudgetPeriod.MONTH, false, List.of(50, 80, 100)),
        new Budget("ml-vision", null, 100.0, BudgetPeriod.WEEK, false, List.of())), ACCOUNTS);
    Instant now = Instant.parse("2026-11-25T10:00:00Z"); // a Wednesday
    List<Instant> asked = new ArrayList<>();
    List<Budgets.Standing> s = b.standings(now, BERLIN, since -> {
      asked.add(since);
      return Map.of("ml", 500.0, "ml-vision", 60.0, "ml-vision-eu", 250.0, "research", 9999.0);
    });
    assertThat(asked).containsExactly(Instant.parse("2026-10-31T23:00:00Z"), Instant.parse("2026-11-22T23:00:00Z"));
    Budgets.Standing ml = s.get(0);
    assertThat(ml.spentUsd()).isEqualTo(810.0);
    assertThat(ml.softReached()).isTrue();
    assertThat(ml.hardReached()).isFalse();
    assertThat(ml.alertsReached()).containsExactly(50, 80);
    Budgets.Standing vision = s.get(1);
    assertThat(vision.spentUsd()).isEqualTo(310.0);
    assertThat(vision.hardReached()).isTrue();

    BudgetLimits limits = b.limits(s, Map.of());
    assertThat(limits.budgetsOf("ml-vision-eu")).containsExactly("ml-vision", "ml");
    assertThat(limits.budgetsOf("research")).isEmpty();
    assertThat(limits.hardLeftUsd()).containsEntry("ml", 190.0).containsEntry("ml-vision", -210.0);
    assertThat(limits.spotOnly()).containsExactlyInAnyOrder("ml", "ml-vision", "ml-vision-eu");
  }

  @Test
  void periodsBeginAtMidnightInTheClustersZone() {
    Instant now = Instant.parse("2026-11-25T23:30:00Z"); // already the 26th in Berlin (UTC+1)
    assertThat(BudgetPeriod.DAY.start(now, BERLIN)).isEqualTo(Instant.parse("2026-11-25T23:00:00Z"));
    assertThat(BudgetPeriod.WEEK.start(now, BERLIN)).isEqualTo(Instant.parse("2026-11-22T23:00:00Z"));
    assertThat(BudgetPeriod.MONTH.start(now, BERLIN)).isEqualTo(Instant.parse("2026-10-31T23:00:00Z"));
    // The next: midnight of the next day, Monday and first of the month, there.
    assertThat(BudgetPeriod.DAY.next(now, BERLIN)).isEqualTo(Instant.parse("2026-11-26T23:00:00Z"));
    assertThat(BudgetPeriod.WEEK.next(now, BERLIN)).isEqualTo(Instant.parse("2026-11-29T23:00:00Z"));
    assertThat(BudgetPeriod.MONTH.next(now, BERLIN)).isEqualTo(Instant.parse("2026-11-30T23:00:00Z"));
  }

  @Test
  void worstCaseIsGpusTimesLimitTimesThePartitionsWorstPriceAmongWhatTheJobMayRunOn() {
    Set<CapacityType> any = Set.of(CapacityType.SPOT, CapacityType.ON_DEMAND);
    BudgetLimits l = new BudgetLimits(Map.of(), Map.of(), Set.of("past-soft"),
        Map.of("gpu", Map.of(CapacityType.SPOT, 1.5, CapacityType.ON_DEMAND, 4.0), "static", Map.of()));
    assertThat(l.worstCostUsd("gpu", any, 8, 1800)).isEqualTo(16.0);
    assertThat(l.worstCostUsd("gpu", Set.of(CapacityType.SPOT), 8, 1800)).isEqualTo(6.0);
    assertThat(l.worstCostUsd("gpu", any, 8, Long.MAX_VALUE)).isInfinite();
    assertThat(l.worstCostUsd("static", any, 8, Long.MAX_VALUE)).isZero();
    assertThat(l.runsOn("past-soft", null)).containsExactly(CapacityType.SPOT);
    assertThat(l.runsOn("other", null)).isEqualTo(any);
    Qos onDemand = new Qos("urgent", 0, Set.of(), PreemptMode.REQUEUE, null, null, Set.of(CapacityType.ON_DEMAND));
    assertThat(l.runsOn("other", onDemand)).containsExactly(CapacityType.ON_DEMAND);
    assertThat(l.runsOn("past-soft", onDemand)).isEmpty(); // runs on static nodes only
  }
}
