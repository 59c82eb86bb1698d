package io.squall.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** SLURM_TIME_FORMAT: standard, relative (Slurm's _relative_date_fmt) or a strftime format. */
class TimeFormatTest {
  private static final ZoneId UTC = ZoneId.of("UTC");
  /** Saturday 21 November 2026, noon. */
  private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");

  private static String at(String setting, String when) {
    return TimeFormat.of(setting, UTC, NOW).format(Instant.parse(when));
  }

  @Test
  void standardIsLocalWallClockWithoutZone() {
    Instant at = Instant.parse("2026-11-21T09:00:00Z");
    assertThat(TimeFormat.standard(UTC).format(at)).isEqualTo("2026-11-21T09:00:00");
    assertThat(TimeFormat.of(null, ZoneId.of("Europe/Berlin"), NOW).format(at)).isEqualTo("2026-11-21T10:00:00");
    assertThat(TimeFormat.of("standard", UTC, NOW).format(at)).isEqualTo("2026-11-21T09:00:00");
    assertThat(TimeFormat.of("", UTC, NOW).format(null, "N/A")).isEqualTo("N/A");
  }

  @Test
  void relativeIsShortAndCountsFromToday() {
    assertThat(at("relative", "2026-11-21T09:05:03Z")).isEqualTo("09:05:03");
    assertThat(at("relative", "2026-11-20T09:05:03Z")).isEqualTo("Ystday 09:05");
    assertThat(at("relative", "2026-11-22T09:05:03Z")).isEqualTo("Tomorr 09:05");
    assertThat(at("relative", "2026-11-25T09:05:03Z")).isEqualTo("Wed 09:05");
    assertThat(at("relative", "2026-11-02T09:05:03Z")).isEqualTo("2 Nov 09:05");
    assertThat(at("relative", "2024-03-09T09:05:03Z")).isEqualTo("9 Mar 2024");
  }

  @Test
  void anythingWithAPercentIsStrftime() {
    assertThat(at("%s", "2026-11-21T09:05:03Z")).isEqualTo("1795251903");
    assertThat(at("%Y-%m-%dT%H:%M:%S UTC%z", "2026-11-21T09:05:03Z")).isEqualTo("2026-11-21T09:05:03 UTC+0000");
    assertThat(at("%a %e %b %-H:%M %p", "2026-11-01T09:05:03Z")).isEqualTo("Sun  1 Nov 9:05 AM");
    assertThat(at("%j %D %R %%", "2026-02-01T21:05:03Z")).isEqualTo("032 02/01/26 21:05 %");
    assertThat(at("%Q%F", "2026-11-21T09:05:03Z")).isEqualTo("%Q2026-11-21");
  }

  @Test
  void aSettingThatIsNoneOfTheThreeIsRefusedInSlurmsWords() {
    assertThatThrownBy(() -> TimeFormat.of("iso", UTC, NOW))
        .hasMessage("invalid SLURM_TIME_FORMAT = 'iso'");
    assertThatThrownBy(() -> TimeFormat.of("%Y".repeat(16), UTC, NOW)).isInstanceOf(IllegalArgumentException.class);
  }
}
