package io.squall.core.sbatch;

import static io.squall.core.sbatch.ParserFixtures.NOW;
import static io.squall.core.sbatch.ParserFixtures.PARSER;
import static io.squall.core.sbatch.ParserFixtures.directives;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import org.junit.jupiter.api.Test;

class CommandLineTest {

  private static SbatchException splitFailure(String... words) {
    Throwable thrown = catchThrowable(() -> CommandLine.split(List.of(words)));
    assertThat(thrown).isInstanceOf(SbatchException.class);
    return (SbatchException) thrown;
  }

  @Test
  void optionsScriptAndScriptArguments() {
    CommandLine cl = CommandLine.split(List.of("-N", "2", "job.sh", "--time=5"));

    assertThat(cl.options()).containsExactly("-N", "2");
    assertThat(cl.script()).isEqualTo("job.sh");
    assertThat(cl.afterScript()).containsExactly("--time=5");
  }

  @Test
  void noScript() {
    CommandLine cl = CommandLine.split(List.of("--time", "10", "-p", "gpu"));

    assertThat(cl.options()).containsExactly("--time", "10", "-p", "gpu");
    assertThat(cl.script()).isNull();
    assertThat(cl.afterScript()).isEmpty();
  }

  @Test
  void emptyCommandLine() {
    CommandLine cl = CommandLine.split(List.of());

    assertThat(cl.options()).isEmpty();
    assertThat(cl.script()).isNull();
    assertThat(cl.afterScript()).isEmpty();
  }

  @Test
  void attachedValuesDoNotConsumeTheNextWord() {
    CommandLine cl = CommandLine.split(List.of("-N2", "--mem=4G", "train.sh", "a", "b"));

    assertThat(cl.options()).containsExactly("-N2", "--mem=4G");
    assertThat(cl.script()).isEqualTo("train.sh");
    assertThat(cl.afterScript()).containsExactly("a", "b");
  }

  @Test
  void flagsAndOptionalArgumentsDoNotConsumeTheNextWord() {
    CommandLine cl = CommandLine.split(List.of("--exclusive", "--hold", "--nice", "job.sh"));

    assertThat(cl.options()).containsExactly("--exclusive", "--hold", "--nice");
    assertThat(cl.script()).isEqualTo("job.sh");
  }

  @Test
  void shortGroupWhoseLastLetterTakesTheNextWord() {
    CommandLine cl = CommandLine.split(List.of("-HN", "2", "run.sh"));

    assertThat(cl.options()).containsExactly("-HN", "2");
    assertThat(cl.script()).isEqualTo("run.sh");
  }

  @Test
  void longOptionPrefixTakesTheNextWord() {
    CommandLine cl = CommandLine.split(List.of("--part", "gpu", "run.sh"));

    assertThat(cl.options()).containsExactly("--part", "gpu");
    assertThat(cl.script()).isEqualTo("run.sh");
  }

  @Test
  void valueThatLooksLikeAScriptIsStillAValue() {
    CommandLine cl = CommandLine.split(List.of("-o", "out.sh", "real.sh"));

    assertThat(cl.options()).containsExactly("-o", "out.sh");
    assertThat(cl.script()).isEqualTo("real.sh");
  }

  @Test
  void scriptArgumentsThatLookLikeOptionsAreNotParsed() {
    CommandLine cl = CommandLine.split(List.of("job.sh", "--frobnicate", "-Z"));

    assertThat(cl.options()).isEmpty();
    assertThat(cl.afterScript()).containsExactly("--frobnicate", "-Z");
  }

  @Test
  void dashAloneIsTheScript() {
    CommandLine cl = CommandLine.split(List.of("-N", "1", "-"));

    assertThat(cl.script()).isEqualTo("-");
  }

  /**
   * getopt_long (which sbatch uses) treats "--" as the end of the options: the next word is the
   * script. CommandLine.split instead looks "--" up as a long option named "" (a prefix of every
   * option) and fails as ambiguous; see the report.
   */
  @Test
  void doubleDashEndsTheOptionsAsInGetopt() {
    CommandLine cl = CommandLine.split(List.of("-N2", "--", "job.sh", "arg"));

    assertThat(cl.options()).containsExactly("-N2");
    assertThat(cl.script()).isEqualTo("job.sh");
    assertThat(cl.afterScript()).containsExactly("arg");
  }

  @Test
  void unknownLongOptionThrows() {
    SbatchException e = splitFailure("--frobnicate", "job.sh");

    assertThat(e.where()).isEqualTo("option");
    assertThat(e.directive()).isEqualTo("--frobnicate");
    assertThat(e.reason()).isEqualTo("unrecognized option --frobnicate");
  }

  @Test
  void unknownShortOptionThrows() {
    SbatchException e = splitFailure("-Z", "job.sh");

    assertThat(e.getMessage()).isEqualTo("option: -Z: unrecognized option -Z");
  }

  @Test
  void ambiguousPrefixThrows() {
    assertThat(splitFailure("--no", "job.sh").reason()).startsWith("ambiguous option");
  }

  @Test
  void everySbatchOptionKnowsItsValue() {
    CommandLine cl = CommandLine.split(List.of("--wckey", "x", "-L", "lic", "--parsable", "job.sh"));

    assertThat(cl.options()).containsExactly("--wckey", "x", "-L", "lic", "--parsable");
    assertThat(cl.script()).isEqualTo("job.sh");
  }

  @Test
  void missingValueAtTheEnd() {
    SbatchException e = splitFailure("-N", "2", "-t");

    assertThat(e.getMessage()).isEqualTo("option: -t: needs a value");
  }

  @Test
  void splitOptionsFeedTheParser() {
    CommandLine cl = CommandLine.split(List.of("-N", "2", "--time", "30", "-HJ", "cli", "job.sh"));

    JobRequest r = PARSER.parse(directives("-N 4", "--time=10"), cl.script(), cl.options(), NOW).request();

    assertThat(r.resources().nodesMin()).isEqualTo(2);
    assertThat(r.timing().timeLimitMinutes()).isEqualTo(30);
    assertThat(r.control().hold()).isTrue();
    assertThat(r.jobName()).isEqualTo("cli");
  }
}
