package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class SacctTimeTest {
  private static final Instant NOW = Instant.parse("2026-11-21T12:30:00Z");
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static Instant parse(String text) {
    return SacctTime.parse(text, NOW, BERLIN);
  }

  @Test
  void datesAndTimesAreLocal() {
    assertThat(parse("2026-11-20")).isEqualTo(Instant.parse("2026-11-19T23:00:00Z"));
    assertThat(parse("2026-11-20T08:15")).isEqualTo(Instant.parse("2026-11-20T07:15:00Z"));
    assertThat(parse("2026-11-20T08:15:30")).isEqualTo(Instant.parse("2026-11-20T07:15:30Z"));
    assertThat(parse("11/20")).isEqualTo(Instant.parse("2026-11-19T23:00:00Z"));
    assertThat(parse("11/20/25")).isEqualTo(Instant.parse("2025-11-19T23:00:00Z"));
    assertThat(parse("112025")).isEqualTo(Instant.parse("2025-11-19T23:00:00Z"));
    assertThat(parse("1120")).isEqualTo(Instant.parse("2026-11-19T23:00:00Z"));
  }

  @Test
  void offsetsTooFarFromNowAreAUsageError() {
    assertThatThrownBy(() -> parse("now+99999999999999999999days")).isInstanceOf(UsageException.class)
        .hasMessageContaining("too far from now");
    assertThatThrownBy(() -> parse("now-9999999999999weeks")).isInstanceOf(UsageException.class)
        .hasMessageStartingWith("invalid time 'now-9999999999999weeks'");
  }

  @Test
  void aDateWithoutAYearIsTheLatestSuchDayUpToToday() {
    // Today is 2026-11-21 in Berlin: later days of the year have not come yet, so they are last year's.
    assertThat(parse("11/21")).isEqualTo(Instant.parse("2026-11-20T23:00:00Z"));
    assertThat(parse("11/22")).isEqualTo(Instant.parse("2025-11-21T23:00:00Z"));
    assertThat(parse("12/01")).isEqualTo(Instant.parse("2025-11-30T23:00:00Z"));
    assertThat(parse("1201")).isEqualTo(Instant.parse("2025-11-30T23:00:00Z"));
    assertThat(parse("01/15")).isEqualTo(Instant.parse("2026-01-14T23:00:00Z"));
    // With a year, the date is taken as written, future or not.
    assertThat(parse("12/01/26")).isEqualTo(Instant.parse("2026-11-30T23:00:00Z"));
  }

  @Test
  void timesOfDayLookBackToToday() {
    // 15:00 Berlin has not come yet at 13:30 Berlin; sacct still means today's.
    assertThat(parse("15:00")).isEqualTo(Instant.parse("2026-11-21T14:00:00Z"));
    assertThat(parse("9:05:01")).isEqualTo(Instant.parse("2026-11-21T08:05:01Z"));
    assertThat(parse("midnight")).isEqualTo(Instant.parse("2026-11-20T23:00:00Z"));
    assertThat(parse("today")).isEqualTo(Instant.parse("2026-11-20T23:00:00Z"));
    assertThat(parse("noon")).isEqualTo(Instant.parse("2026-11-21T11:00:00Z"));
    assertThat(parse("tomorrow")).isEqualTo(Instant.parse("2026-11-21T23:00:00Z"));
  }

  @Test
  void nowWithOffsets() {
    assertThat(parse("now")).isEqualTo(NOW);
    assertThat(parse("NOW-1hours")).isEqualTo(NOW.minusSeconds(3_600));
    assertThat(parse("now-30")).isEqualTo(NOW.minusSeconds(30));
    assertThat(parse("now+2days")).isEqualTo(NOW.plusSeconds(2 * 86_400));
    assertThat(parse("now-1week")).isEqualTo(NOW.minusSeconds(7 * 86_400));
    assertThat(parse("now-5min")).isEqualTo(NOW.minusSeconds(300));
  }

  @Test
  void nonsenseIsRejectedWithTheFormats() {
    assertThatThrownBy(() -> parse("now-3fortnights")).hasMessageContaining("unknown unit 'fortnights'");
    assertThatThrownBy(() -> parse("2026-13-01")).hasMessageContaining("invalid time '2026-13-01'");
    assertThatThrownBy(() -> parse("last tuesday")).hasMessageContaining("use YYYY-MM-DD");
  }
}
