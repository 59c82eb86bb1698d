package io.squall.core.sbatch;

import static io.squall.core.sbatch.ParserFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FilenamePatternTest {
  /** Task 7 of array job 4200, itself job 4242, named "train", run by alice on gpu001. */
  private static final FilenamePattern.Context ARRAY_TASK =
      new FilenamePattern.Context(4242, 4200L, 7, "train", "alice", "gpu001", 0, null, 0);
  /** A plain (non-array) job. */
  private static final FilenamePattern.Context PLAIN_JOB =
      new FilenamePattern.Context(4242, null, null, "train", "alice", "gpu001", 0, null, 0);

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "slurm-%j.out        | slurm-4242.out",
      "%x-%j.out           | train-4242.out",
      "logs/%A_%a.out      | logs/4200_7.out",
      "task%3a.log         | task007.log",
      "%5j                 | 04242",
      "100%%               | 100%",
      "%%j                 | %j",
      "/home/%u/out        | /home/alice/out",
      "%N.log              | gpu001.log",
      "%3N.log             | gpu001.log",
      "no-symbols.txt      | no-symbols.txt"})
  void expandsForAnArrayTask(String pattern, String expected) {
    assertThat(FilenamePattern.expand(pattern, ARRAY_TASK)).isEqualTo(expected);
  }

  @Test
  void jobIdSymbol() {
    assertThat(FilenamePattern.expand("%j", PLAIN_JOB)).isEqualTo("4242");
  }

  @Test
  void jobNameSymbol() {
    assertThat(FilenamePattern.expand("%x", PLAIN_JOB)).isEqualTo("train");
  }

  @Test
  void arrayMasterAndTaskIds() {
    assertThat(FilenamePattern.expand("%A_%a", ARRAY_TASK)).isEqualTo("4200_7");
  }

  @Test
  void zeroPaddedTaskId() {
    assertThat(FilenamePattern.expand("%3a", ARRAY_TASK)).isEqualTo("007");
  }

  @Test
  void paddingNeverTruncates() {
    FilenamePattern.Context bigTask = new FilenamePattern.Context(1, 1L, 12345, "j", "u", "n", 0, null, 0);

    assertThat(FilenamePattern.expand("%3a", bigTask)).isEqualTo("12345");
  }

  @Test
  void hugeWidthsClipToTenDigits() {
    String pattern = request("--output=%99999999999j.out").files().output(); // accepted by validation

    assertThat(FilenamePattern.expand(pattern, PLAIN_JOB)).isEqualTo("0000004242.out");
    assertThat(FilenamePattern.expand("%11j-%010j-%0003j", PLAIN_JOB)).isEqualTo("0000004242-0000004242-4242");
  }

  @Test
  void aTrailingPercentStandsForItself() {
    assertThat(FilenamePattern.expand("out%", PLAIN_JOB)).isEqualTo("out%");
    assertThat(FilenamePattern.expand("out%3", PLAIN_JOB)).isEqualTo("out%3");
    assertThat(FilenamePattern.expand("%", PLAIN_JOB)).isEqualTo("%");
  }

  @Test
  void percentEscape() {
    assertThat(FilenamePattern.expand("%%", ARRAY_TASK)).isEqualTo("%");
  }

  @Test
  void userName() {
    assertThat(FilenamePattern.expand("%u", ARRAY_TASK)).isEqualTo("alice");
  }

  @Test
  void firstNodeIgnoresPadding() {
    assertThat(FilenamePattern.expand("%N", ARRAY_TASK)).isEqualTo("gpu001");
    assertThat(FilenamePattern.expand("%10N", ARRAY_TASK)).isEqualTo("gpu001");
  }

  @Test
  void outsideAnArrayTheMasterIdIsTheJobIdAndTheTaskIdIsNoVal() {
    assertThat(FilenamePattern.expand("%A", PLAIN_JOB)).isEqualTo("4242");
    assertThat(FilenamePattern.expand("%a", PLAIN_JOB)).isEqualTo("4294967294");
  }

  @Test
  void backslashTurnsExpansionOff() {
    assertThat(FilenamePattern.expand("job\\%j.out", ARRAY_TASK)).isEqualTo("job%j.out");
  }

  @Test
  void patternsArePassedThroughTheParserUnexpanded() {
    JobRequest.Files f = request("--output=logs/%x_%A_%3a.out", "--error=logs/%x_%j.err").files();

    assertThat(f.output()).isEqualTo("logs/%x_%A_%3a.out");
    assertThat(f.error()).isEqualTo("logs/%x_%j.err");
  }
}
