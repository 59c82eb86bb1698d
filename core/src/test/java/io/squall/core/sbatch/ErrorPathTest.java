package io.squall.core.sbatch;

import static io.squall.core.sbatch.ParserFixtures.directiveFailure;
import static io.squall.core.sbatch.ParserFixtures.directives;
import static io.squall.core.sbatch.ParserFixtures.failure;
import static io.squall.core.sbatch.ParserFixtures.parse;
import static io.squall.core.sbatch.ParserFixtures.script;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every refusal is an {@link SbatchException} whose message is {@code where: directive: reason},
 * naming the line (or "option") and quoting the directive as written.
 */
class ErrorPathTest {

  /** Checks the three parts and that the message is exactly {@code where: directive: reason}. */
  private static void assertError(SbatchException e, String where, String directive, String reason) {
    assertThat(e.where()).isEqualTo(where);
    assertThat(e.directive()).isEqualTo(directive);
    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.getMessage()).isEqualTo(where + ": " + directive + ": " + reason);
  }

  @Nested
  class Script {
    @Test
    void missingShebang() {
      SbatchException e = failure("#SBATCH --time=5\nsrun hostname\n");

      assertThat(e.where()).isEqualTo("line 1");
      assertThat(e.directive()).isEmpty();
      assertThat(e.getMessage()).startsWith("line 1: this does not look like a batch script")
          .contains("#!");
    }

    @Test
    void emptyScript() {
      assertThat(failure("").getMessage()).startsWith("line 1: ");
    }

    @Test
    void shebangNotOnTheFirstLine() {
      assertThat(failure("\n#!/bin/bash\nsrun hostname\n").where()).isEqualTo("line 1");
    }

    @Test
    void unterminatedQuote() {
      SbatchException e = failure(script("#SBATCH -N 1", "#SBATCH --job-name=\"my job"));

      assertError(e, "line 3", "--job-name=\"my job", "unterminated quote \"");
    }

    @Test
    void unterminatedSingleQuote() {
      SbatchException e = directiveFailure("--comment='oops");

      assertError(e, "line 2", "--comment='oops", "unterminated quote '");
    }

    @Test
    void wordThatIsNotAnOption() {
      SbatchException e = directiveFailure("-p gpu extra");

      assertError(e, "line 2", "extra", "not an option (sbatch options start with - or --)");
    }
  }

  @Nested
  class Options {
    @Test
    void unknownLongOption() {
      SbatchException e = directiveFailure("--nodes=1", "--frobnicate=3");

      assertError(e, "line 3", "--frobnicate=3", "unrecognized option --frobnicate");
    }

    @Test
    void unknownShortOption() {
      SbatchException e = directiveFailure("-Z 3");

      assertError(e, "line 2", "-Z", "unrecognized option -Z");
    }

    /** Real sbatch options are accepted (with a warning where not honoured); only unknown ones are refused. */
    @Test
    void srunOptionIsNamedAsSuch() {
      SbatchException e = directiveFailure("--x11");

      assertError(e, "line 2", "--x11", "unrecognized option --x11 (an srun/salloc option: sbatch refuses it too)");
    }

    @Test
    void prefixOfAStoredSlurmOptionSelectsIt() {
      assertThat(parse(directives("--wck=x")).request().unhonoured()).containsEntry("wckey", "x");
    }

    @Test
    void exactNameWinsOverALongerOptionWithThatPrefix() {
      // --wait is a real sbatch flag; --wait-all-nodes starts with it. The exact name wins.
      assertThat(parse(directives("--wait")).request().unhonoured()).containsOnlyKeys("wait");
    }

    @Test
    void ambiguousPrefix() {
      SbatchException e = directiveFailure("-N 1", "--no");

      assertError(e, "line 3", "--no",
          "ambiguous option, could be --no-kill, --no-requeue, --nodefile, --nodelist, --nodes");
    }

    @Test
    void longOptionMissingItsValueAtTheEndOfTheLine() {
      SbatchException e = directiveFailure("-N 1", "--partition");

      assertError(e, "line 3", "--partition", "--partition needs a value");
    }

    @Test
    void shortOptionMissingItsValueAtTheEndOfTheLine() {
      SbatchException e = directiveFailure("-p");

      assertError(e, "line 2", "-p", "-p needs a value");
    }

    @Test
    void flagGivenAValue() {
      SbatchException e = directiveFailure("--requeue=yes");

      assertError(e, "line 2", "--requeue=yes", "--requeue takes no value");
    }
  }

  @Nested
  class Values {
    /** What Slurm's time_str2secs answers NO_VAL to ("Invalid --time specification"). */
    @ParameterizedTest(name = "--time={0}")
    @CsvSource({"1:", ":30", "1-2:", "1-:30", "1:2-3", "1::2", "2h", "'1 0'"})
    void timeSlurmCannotRead(String value) {
      SbatchException e = directiveFailure("--time=\"" + value + "\"");

      assertError(e, "line 2", "--time=" + value, "invalid time '" + value
          + "': expected M, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED");
    }

    @Test
    void shortTimeOptionIsQuotedAsWritten() {
      SbatchException e = directiveFailure("-t 1:2:3:4");

      assertError(e, "line 2", "-t 1:2:3:4", "invalid time '1:2:3:4': expected M, M:S, H:M:S, D-H, D-H:M, D-H:M:S"
          + " or UNLIMITED");
    }

    @ParameterizedTest(name = "--time={0}")
    @CsvSource({"abc", "1:2:3:4", "1-2-3", "-5"})
    void malformedTime(String value) {
      SbatchException e = directiveFailure("--time=" + value);

      assertThat(e.getMessage()).startsWith("line 2: --time=" + value + ": ");
      assertThat(e.reason()).isNotBlank();
    }

    @Test
    void backwardsNodeRange() {
      SbatchException e = directiveFailure("--nodes=4-2");

      assertError(e, "line 2", "--nodes=4-2", "the maximum node count 2 is below the minimum 4");
    }

    @Test
    void zeroTasks() {
      SbatchException e = directiveFailure("--ntasks=0");

      assertError(e, "line 2", "--ntasks=0", "must be at least 1");
    }

    @Test
    void tasksNotANumber() {
      SbatchException e = directiveFailure("-n four");

      assertError(e, "line 2", "-n four", "expected a whole number, got 'four'");
    }

    @Test
    void badMemoryUnit() {
      SbatchException e = directiveFailure("--mem=4X");

      assertError(e, "line 2", "--mem=4X", "bad memory unit 'X' in '4X': use K, M, G or T");
    }

    @Test
    void bytesAreNoMemoryUnit() {
      SbatchException e = directiveFailure("--mem=16B");

      assertError(e, "line 2", "--mem=16B", "bad memory unit 'B' in '16B': use K, M, G or T");
    }

    @Test
    void memPerCpuOfZero() {
      SbatchException e = directiveFailure("--mem-per-cpu=0");

      assertError(e, "line 2", "--mem-per-cpu=0", "must be above zero (only --mem=0 means the whole node)");
    }

    @Test
    void memAndMemPerCpuInTheSameScript() {
      SbatchException e = directiveFailure("--mem=4G", "--mem-per-cpu=1G");

      assertError(e, "line 3", "--mem-per-cpu=1G",
          "--mem, --mem-per-cpu and --mem-per-gpu are mutually exclusive (--mem=4G was given at line 2)");
    }

    @Test
    void arrayStepZero() {
      SbatchException e = directiveFailure("--array=0-10:0");

      assertError(e, "line 2", "--array=0-10:0", "step must be at least 1 in '0-10:0'");
    }

    /** MaxArraySize is the cluster's (checked by the server); only what no cluster allows is refused here. */
    @Test
    void arrayIdAboveAnyMaxArraySize() {
      SbatchException e = directiveFailure("--array=0-4000001");

      assertError(e, "line 2", "--array=0-4000001", "task id 4000001 is above 4000000, the highest any Slurm"
          + " cluster allows (MaxArraySize is at most 4000001)");
    }

    @ParameterizedTest(name = "--array={0}")
    @CsvSource(delimiter = '|', value = {"0-9%   | %", "0-9%x  | %x", "0-9%-1 | %-1"})
    void badThrottle(String value, String throttle) {
      SbatchException e = directiveFailure("--array=" + value);

      assertError(e, "line 2", "--array=" + value,
          "bad throttle '" + throttle + "': expected %N with N a whole number");
    }

    @Test
    void backwardsArrayRange() {
      SbatchException e = directiveFailure("--array=9-3");

      assertError(e, "line 2", "--array=9-3", "range '9-3' goes backwards");
    }

    @Test
    void dependencyMixingAllAndAny() {
      SbatchException e = directiveFailure("--dependency=afterok:1,afterany:2?afterok:3");

      assertError(e, "line 2", "--dependency=afterok:1,afterany:2?afterok:3",
          "use either ',' (all) or '?' (any) between conditions, not both");
    }

    @Test
    void unknownDependencyType() {
      SbatchException e = directiveFailure("--dependency=afterfoo:12");

      assertError(e, "line 2", "--dependency=afterfoo:12", "unknown dependency type 'afterfoo': use after,"
          + " afterany, afterok, afternotok, aftercorr, afterburstbuffer or singleton");
    }

    @Test
    void delayOnlyWithAfter() {
      SbatchException e = directiveFailure("--dependency=afterok:5+10");

      assertError(e, "line 2", "--dependency=afterok:5+10", "'+time' is only allowed with after: in 'afterok:5+10'");
    }

    @Test
    void badSignalName() {
      SbatchException e = directiveFailure("--signal=FOO");

      assertError(e, "line 2", "--signal=FOO", "unknown signal 'FOO': use a name like USR1 or a number from 1 to 64");
    }

    @Test
    void signalLeadTimeTooLarge() {
      SbatchException e = directiveFailure("--signal=B:USR1@70000");

      assertError(e, "line 2", "--signal=B:USR1@70000", "bad time '@70000': expected seconds from 0 to 65535");
    }

    @Test
    void signalFlagUnknown() {
      SbatchException e = directiveFailure("--signal=X:USR1");

      assertError(e, "line 2", "--signal=X:USR1", "unknown flag 'X': use B: or R: before the signal");
    }

    @Test
    void constraintWithDoubledOperator() {
      SbatchException e = directiveFailure("--constraint=a&&b");

      assertError(e, "line 2", "--constraint=a&&b", "expected a feature name at position 3, found '&'");
    }

    @Test
    void constraintWithUnclosedBracket() {
      SbatchException e = directiveFailure("--constraint=[a|b");

      assertError(e, "line 2", "--constraint=[a|b", "missing ']' at position 5");
    }

    @Test
    void constraintCountOfZero() {
      SbatchException e = directiveFailure("--constraint=a*0");

      assertError(e, "line 2", "--constraint=a*0", "expected a node count of at least 1 after 'a*'");
    }

    @Test
    void unknownFilenamePattern() {
      SbatchException e = directiveFailure("--output=logs/%z.out");

      assertError(e, "line 2", "--output=logs/%z.out",
          "unknown replacement symbol at '%z': use %% %A %a %J %j %N %n %s %t %u %x %b");
    }

    @Test
    void unknownFilenamePatternInShortOption() {
      SbatchException e = directiveFailure("-e err-%3q.log");

      assertError(e, "line 2", "-e err-%3q.log",
          "unknown replacement symbol at '%3q': use %% %A %a %J %j %N %n %s %t %u %x %b");
    }

    @Test
    void unknownExclusiveValue() {
      SbatchException e = directiveFailure("--exclusive=foo");

      assertError(e, "line 2", "--exclusive=foo",
          "expected --exclusive or --exclusive=exclusive, oversubscribe, user, mcs or topo");
    }

    @Test
    void malformedGenericResource() {
      SbatchException e = directiveFailure("--gres=nvme:a:b:2");

      assertError(e, "line 2", "--gres=nvme:a:b:2", "bad GRES 'nvme:a:b:2': expected name[:type][:count], e.g. gpu:h100:2");
    }

    @Test
    void badHostlist() {
      SbatchException e = directiveFailure("--nodelist=gpu[4-2]");

      assertError(e, "line 2", "--nodelist=gpu[4-2]", "range '4-2' in 'gpu[4-2]' goes backwards");
    }

    @Test
    void unknownBeginTime() {
      SbatchException e = directiveFailure("--begin=someday");

      assertThat(e.getMessage()).startsWith("line 2: --begin=someday: unknown time 'someday'");
    }
  }

  @Nested
  class Combinations {
    @Test
    void timeMinAboveTime() {
      SbatchException e = directiveFailure("--time=10", "--time-min=20");

      assertError(e, "line 3", "--time-min=20", "--time-min must not be above --time (00:10:00)");
    }

    @Test
    void nodelistAndExcludeOverlap() {
      SbatchException e = directiveFailure("--nodelist=gpu[001-002]", "--exclude=gpu002");

      assertError(e, "line 3", "--exclude=gpu002", "node gpu002 is both required (--nodelist) and excluded");
    }

    @Test
    void nodelistLargerThanTheMaximumNodeCount() {
      SbatchException e = directiveFailure("-N 2", "-w gpu[1-3]");

      assertError(e, "line 3", "-w gpu[1-3]", "--nodelist names 3 nodes but at most 2 were requested with --nodes");
    }

    @Test
    void ntasksPerGpuWithGpusPerTask() {
      SbatchException e = directiveFailure("--gpus-per-task=1", "--ntasks-per-gpu=2");

      assertError(e, "line 3", "--ntasks-per-gpu=2", "--ntasks-per-gpu and --gpus-per-task are mutually exclusive");
    }

    @Test
    void conflictingGpuTypes() {
      SbatchException e = directiveFailure("--gpus=h100:16", "--gpus-per-node=a100:8");

      assertError(e, "line 3", "--gpus-per-node=a100:8", "GPU type 'a100' differs from 'h100' given elsewhere");
    }

    @Test
    void deadlineNotAfterBegin() {
      SbatchException e = directiveFailure("--begin=2026-07-01", "--deadline=2026-06-30");

      assertError(e, "line 3", "--deadline=2026-06-30", "the deadline must be after --begin");
    }
  }

  @Nested
  class ExplicitOptions {
    @Test
    void badExplicitTime() {
      SbatchException e = failure(directives("-N 1"), "--time=1-2-3");

      assertThat(e.getMessage()).isEqualTo("option: --time=1-2-3: invalid time '1-2-3': expected M, M:S, H:M:S,"
          + " D-H, D-H:M, D-H:M:S or UNLIMITED");
    }

    @Test
    void explicitShortOptionMissingItsValue() {
      SbatchException e = failure(directives("-N 1"), "-t");

      assertError(e, "option", "-t", "-t needs a value");
    }

    @Test
    void explicitUnknownOption() {
      SbatchException e = failure(directives("-N 1"), "--frobnicate");

      assertError(e, "option", "--frobnicate", "unrecognized option --frobnicate");
    }

    @Test
    void explicitSrunOption() {
      SbatchException e = failure(directives("-N 1"), "--immediate");

      assertError(e, "option", "--immediate", "unrecognized option --immediate (an srun/salloc option: sbatch"
          + " refuses it too)");
    }

    @Test
    void explicitWordThatIsNotAnOption() {
      SbatchException e = failure(directives("-N 1"), "job.sh");

      assertError(e, "option", "job.sh", "not an option (sbatch options start with - or --)");
    }

    @Test
    void twoExplicitMemoryOptions() {
      SbatchException e = failure(directives("-N 1"), "--mem=4G", "--mem-per-cpu=1G");

      assertError(e, "option", "--mem-per-cpu=1G",
          "--mem, --mem-per-cpu and --mem-per-gpu are mutually exclusive (--mem=4G was given at option)");
    }

    @Test
    void explicitLongOptionWithSeparateValueIsQuotedInCanonicalForm() {
      SbatchException e = failure(directives("-N 1"), "--nodes", "0");

      assertError(e, "option", "--nodes=0", "must be at least 1");
    }

    @Test
    void explicitTimeMinAboveTheScriptsTime() {
      SbatchException e = failure(directives("--time=10"), "--time-min=30");

      assertError(e, "option", "--time-min=30", "--time-min must not be above --time (00:10:00)");
    }

    @Test
    void scriptErrorsComeBeforeExplicitOnes() {
      SbatchException e = failure(directives("--ntasks=0"), "--time=25:61:00");

      assertThat(e.where()).isEqualTo("line 2");
    }
  }
}
