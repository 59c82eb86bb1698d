package io.squall.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SlurmTimeTest {
  @Test
  void compactDropsLeadingZeroFieldsLikeSqueue() {
    assertThat(SlurmTime.compact(0)).isEqualTo("0:00");
    assertThat(SlurmTime.compact(5)).isEqualTo("0:05");
    assertThat(SlurmTime.compact(65)).isEqualTo("1:05");
    assertThat(SlurmTime.compact(3_723)).isEqualTo("1:02:03");
    assertThat(SlurmTime.compact(86_400)).isEqualTo("1-00:00:00");
    assertThat(SlurmTime.compact(2 * 86_400 + 3_600 + 1)).isEqualTo("2-01:00:01");
    assertThat(SlurmTime.compact(12 * 3_600 + 34 * 60 + 56)).isEqualTo("12:34:56");
    assertThat(SlurmTime.compact(10 * 86_400 + 59)).isEqualTo("10-00:00:59");
    assertThat(SlurmTime.compact(600)).isEqualTo("10:00");
  }

  @Test
  void fullAlwaysShowsHoursLikeSacct() {
    assertThat(SlurmTime.full(5)).isEqualTo("00:00:05");
    assertThat(SlurmTime.full(3_723)).isEqualTo("01:02:03");
    assertThat(SlurmTime.full(90_000)).isEqualTo("1-01:00:00");
  }

  @Test
  void limitsAreMinutesWithUnlimitedForNull() {
    assertThat(SlurmTime.limit(null)).isEqualTo("UNLIMITED");
    assertThat(SlurmTime.limit(30L)).isEqualTo("30:00");
    assertThat(SlurmTime.limit(60L)).isEqualTo("1:00:00");
    assertThat(SlurmTime.limit(1_440L)).isEqualTo("1-00:00:00");
    assertThat(SlurmTime.fullLimit(60L)).isEqualTo("01:00:00");
    assertThat(SlurmTime.fullLimit(1_441L)).isEqualTo("1-00:01:00");
    assertThat(SlurmTime.fullLimit(null)).isEqualTo("UNLIMITED");
  }

  @Test
  void negativeDurationsAreInvalidNotGarbage() {
    assertThat(SlurmTime.compact(-1)).isEqualTo("INVALID");
    assertThat(SlurmTime.full(-1)).isEqualTo("INVALID");
  }
}
