package io.squall.core.sbatch;

import static io.squall.core.sbatch.ParserFixtures.NOW;
import static io.squall.core.sbatch.ParserFixtures.SCRIPT_NAME;
import static io.squall.core.sbatch.ParserFixtures.directiveFailure;
import static io.squall.core.sbatch.ParserFixtures.directives;
import static io.squall.core.sbatch.ParserFixtures.parse;
import static io.squall.core.sbatch.ParserFixtures.request;
import static io.squall.core.sbatch.ParserFixtures.script;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.sbatch.Constraint.And;
import io.squall.core.sbatch.Constraint.Feature;
import io.squall.core.sbatch.Constraint.Matching;
import io.squall.core.sbatch.Constraint.Or;
import io.squall.core.sbatch.Dependency.Condition;
import io.squall.core.sbatch.Dependency.Type;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** What each option means once parsed, option by option, with Slurm's semantics. */
class OptionSemanticsTest {

  static Stream<Arguments> unambiguousPrefixes() {
    return Stream.of(
        Arguments.of("--err=x", (Check) r -> assertThat(r.files().error()).isEqualTo("x")),
        Arguments.of("--part=gpu", (Check) r -> assertThat(r.placement().partitions()).containsExactly("gpu")),
        Arguments.of("--gpus-per-n=4", (Check) r -> assertThat(r.resources().gpusPerNode()).isEqualTo(4)),
        Arguments.of("--mem-per-c=2G", (Check) r -> assertThat(r.resources().memPerCpuMb()).isEqualTo(2048L)),
        Arguments.of("--exclus", (Check) r -> assertThat(r.resources().exclusive()).isEqualTo(Exclusive.NODE)),
        Arguments.of("--dep=singleton", (Check) r -> assertThat(r.control().dependency()).hasToString("singleton")),
        Arguments.of("--nodel=n1", (Check) r -> assertThat(r.placement().nodelist()).containsExactly("n1")));
  }

  /** One assertion on a parsed request, for table tests. */
  interface Check {
    void on(JobRequest request);
  }

  @Nested
  class Nodes {
    @ParameterizedTest(name = "--nodes={0} -> {1}..{2}")
    @CsvSource({"4, 4, 4", "1, 1, 1", "2-4, 2, 4", "3-3, 3, 3", "1-64, 1, 64"})
    void nodeCountAndRange(String value, int min, int max) {
      JobRequest.Resources r = request("--nodes=" + value).resources();

      assertThat(r.nodesMin()).isEqualTo(min);
      assertThat(r.nodesMax()).isEqualTo(max);
    }

    @Test
    void noNodeOptionLeavesBothBoundsUnset() {
      JobRequest.Resources r = request("--ntasks=4").resources();

      assertThat(r.nodesMin()).isNull();
      assertThat(r.nodesMax()).isNull();
    }

    @Test
    void fewerTasksThanNodesShrinksTheNodeCountWithAWarning() {
      SbatchParser.Result result = parse(directives("-N 4", "-n 2"));

      assertThat(result.request().resources().nodesMin()).isEqualTo(2);
      assertThat(result.request().resources().nodesMax()).isEqualTo(2);
      assertThat(result.warnings()).containsExactly("can't run 2 tasks on 4 nodes, setting nodes to 2 (as sbatch does)");
    }

    @Test
    void taskAndCpuCounts() {
      JobRequest.Resources r = request("--ntasks=32", "--ntasks-per-node=8", "--cpus-per-task=4",
          "--cpus-per-gpu=12").resources();

      assertThat(r.ntasks()).isEqualTo(32);
      assertThat(r.ntasksPerNode()).isEqualTo(8);
      assertThat(r.cpusPerTask()).isEqualTo(4);
      assertThat(r.cpusPerGpu()).isEqualTo(12);
    }
  }

  @Nested
  class Time {
    @ParameterizedTest(name = "--time={0} -> {1} min")
    @CsvSource({
        "30, 30",                // minutes
        "5:30, 6",               // minutes:seconds, seconds round up
        "0:59, 1",
        "90:00, 90",             // minutes may exceed 59 in M:S
        "1:00:00, 60",           // hours:minutes:seconds
        "2:30:15, 151",
        "1-0, 1440",             // days-hours
        "1-12, 2160",
        "2-3:30, 3090",          // days-hours:minutes
        "1-0:0:1, 1441",         // days-hours:minutes:seconds
        "2-00:00:00, 2880",
        // Slurm's time_str2secs bounds no field: each is multiplied by its unit and added.
        "1-25:00:00, 2940",
        "25:61:00, 1561",
        "10:60, 11",
        "1:00:75, 62",
        "1-2:03:60, 1564",
        "0-99:99:99, 6041",
        "1-, 1440"})              // days alone
    void timeFormats(String value, int minutes) {
      assertThat(request("--time=" + value).timing().timeLimitMinutes()).isEqualTo(minutes);
      assertThat(TimeLimit.parseMinutes(value)).isEqualTo(minutes);
    }

    @ParameterizedTest
    @CsvSource({"UNLIMITED", "unlimited", "INFINITE", "-1"})
    void unlimited(String value) {
      assertThat(request("--time=" + value).timing().timeLimitMinutes()).isEqualTo(TimeLimit.UNLIMITED);
    }

    /**
     * sbatch(1): "A time limit of zero requests that no time limit be imposed." Squall refuses
     * --time=0 ("a time limit of zero is not allowed"); see the report.
     */
    @Test
    void timeZeroMeansNoLimitAsInSlurm() {
      assertThat(request("--time=0").timing().timeLimitMinutes()).isEqualTo(TimeLimit.UNLIMITED);
    }

    @Test
    void shortTimeOptionWithSeparateAndAttachedValue() {
      assertThat(request("-t 45").timing().timeLimitMinutes()).isEqualTo(45);
      assertThat(request("-t2:00:00").timing().timeLimitMinutes()).isEqualTo(120);
    }

    @Test
    void timeMinIsKept() {
      JobRequest.Timing t = request("--time=1-0", "--time-min=2:00:00").timing();

      assertThat(t.timeLimitMinutes()).isEqualTo(1440);
      assertThat(t.timeMinMinutes()).isEqualTo(120);
    }

    @ParameterizedTest(name = "format({0}) = {1}")
    @CsvSource({"1, 00:01:00", "90, 01:30:00", "1440, 1-00:00:00", "2880, 2-00:00:00", "1441, 1-00:01:00",
        "-1, UNLIMITED"})
    void formatLikeScontrol(int minutes, String text) {
      assertThat(TimeLimit.format(minutes)).isEqualTo(text);
    }
  }

  @Nested
  class Memory {
    @ParameterizedTest(name = "--mem={0} -> {1} MB")
    @CsvSource({"4096, 4096", "512M, 512", "4G, 4096", "16g, 16384", "1T, 1048576", "2048K, 2", "0, 0",
        "16GB, 16384", "512mb, 512", "2KB, 1"})
    void memoryUnits(String value, long mb) {
      assertThat(request("--mem=" + value).resources().memPerNodeMb()).isEqualTo(mb);
    }

    @Test
    void memZeroMeansTheWholeNode() {
      JobRequest.Resources r = request("--mem=0").resources();

      assertThat(r.memPerNodeMb()).isZero();
      assertThat(r.memPerCpuMb()).isNull();
    }

    @Test
    void memPerCpuAndPerGpu() {
      assertThat(request("--mem-per-cpu=1G").resources().memPerCpuMb()).isEqualTo(1024L);
      assertThat(request("--mem-per-gpu=80G").resources().memPerGpuMb()).isEqualTo(81920L);
    }

    @Test
    void laterMemDirectiveWins() {
      assertThat(request("--mem=4G", "--mem=8G").resources().memPerNodeMb()).isEqualTo(8192L);
    }
  }

  @Nested
  class Gpus {
    @ParameterizedTest(name = "--gres={0} -> {1} x {2}")
    @CsvSource(value = {"gpu, 1, NULL", "gpu:2, 2, NULL", "gpu:a100:2, 2, a100", "gpu:a100, 1, a100",
        "gpu:h100:8, 8, h100"}, nullValues = "NULL")
    void gresGpu(String value, int count, String type) {
      JobRequest.Resources r = request("--gres=" + value).resources();

      assertThat(r.gpusPerNode()).isEqualTo(count);
      assertThat(r.gpuType()).isEqualTo(type);
      assertThat(r.gpus()).isNull();
    }

    /** Well-formed GRES the parser cannot know the cluster lacks: kept for the server to check, as sbatch leaves it to slurmctld. */
    @Test
    void otherGresAreKeptForTheServerToCheck() {
      JobRequest.Resources r = request("--gres=nvme:2,gpu:h100:4,shard:gpu:1").resources();

      assertThat(r.gpusPerNode()).isEqualTo(4);
      assertThat(r.otherGres()).containsExactly("nvme:2", "shard:gpu:1");
      assertThat(request("--gres=none").resources().otherGres()).isEmpty();
    }

    @Test
    void gpusForTheWholeJobWithType() {
      JobRequest.Resources r = request("--gpus=h100:16").resources();

      assertThat(r.gpus()).isEqualTo(16);
      assertThat(r.gpuType()).isEqualTo("h100");
      assertThat(r.gpusPerNode()).isNull();
    }

    @Test
    void shortGpusOption() {
      assertThat(request("-G 4").resources().gpus()).isEqualTo(4);
    }

    @Test
    void gpusPerNodeAndPerTask() {
      JobRequest.Resources r = request("--gpus-per-node=8", "--gpus-per-task=1").resources();

      assertThat(r.gpusPerNode()).isEqualTo(8);
      assertThat(r.gpusPerTask()).isEqualTo(1);
      assertThat(r.gpuType()).isNull();
    }

    @Test
    void ntasksPerGpu() {
      assertThat(request("--gpus=4", "--ntasks-per-gpu=2").resources().ntasksPerGpu()).isEqualTo(2);
    }

    @Test
    void laterGresOverridesEarlierGpusPerNode() {
      JobRequest.Resources r = request("--gpus-per-node=4", "--gres=gpu:8").resources();

      assertThat(r.gpusPerNode()).isEqualTo(8);
    }
  }

  @Nested
  class Arrays {
    @ParameterizedTest(name = "--array={0} -> {1} (throttle {2})")
    @CsvSource(delimiter = '|', value = {
        "0-15       | 0-15                         | 0",
        "1,3,5      | 1,3,5                        | 0",
        "0-15:4     | 0,4,8,12                     | 0",
        "1,3,5-7%2  | 1,3,5-7                      | 2",
        "0-99:10%4  | 0,10,20,30,40,50,60,70,80,90 | 4",
        "7          | 7                            | 0",
        "5-7,1-2    | 1-2,5-7                      | 0",
        "0-1000     | 0-1000                       | 0",
        "0-1001     | 0-1001                       | 0",
        "3999990-4000000 | 3999990-4000000         | 0"})
    void arrayForms(String value, String taskList, int throttle) {
      ArraySpec array = request("--array=" + value).control().array();

      assertThat(array.taskList()).isEqualTo(taskList);
      assertThat(array.maxRunning()).isEqualTo(throttle);
    }

    @Test
    void steppedRangeTaskIds() {
      assertThat(request("--array=0-15:4").control().array().taskIds()).containsExactly(0, 4, 8, 12);
    }

    /** SLURM_ARRAY_TASK_STEP: the same tasks have the same step however they are written. */
    @ParameterizedTest(name = "--array={0} steps {1}")
    @CsvSource(delimiter = '|', value = {"0-15:4 | 4", "1,3,5,7 | 2", "0-31 | 1", "7 | 1", "1,2,4 | 1"})
    void arrayStep(String value, int step) {
      assertThat(request("--array=" + value).control().array().step()).isEqualTo(step);
    }

    @Test
    void throttleIsWrittenBack() {
      ArraySpec array = request("-a 1,3,5-7%2").control().array();

      assertThat(array.taskIds()).containsExactly(1, 3, 5, 6, 7);
      assertThat(array).hasToString("1,3,5-7%2");
    }
  }

  @Nested
  class Dependencies {
    @ParameterizedTest(name = "--dependency={0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "afterok:4242:4243           | afterok:4242,afterok:4243",
        "after:5+10                  | after:5+10",
        "singleton                   | singleton",
        "afterok:12_3                | afterok:12_3",
        "afterany:10?afternotok:11   | afterany:10?afternotok:11",
        "afterok:1,afterany:2        | afterok:1,afterany:2",
        "aftercorr:77                | aftercorr:77",
        "afterburstbuffer:8          | afterburstbuffer:8"})
    void dependencyForms(String value, String printed) {
      assertThat(request("--dependency=" + value).control().dependency()).hasToString(printed);
    }

    @Test
    void afterWithDelay() {
      Dependency dep = request("--dependency=after:5+10").control().dependency();

      assertThat(dep.conditions()).containsExactly(new Condition(Type.AFTER, 5, null, 10));
    }

    @Test
    void singleton() {
      Dependency dep = request("--dependency=singleton").control().dependency();

      assertThat(dep.conditions()).containsExactly(new Condition(Type.SINGLETON, 0, null, 0));
    }

    @Test
    void arrayTask() {
      Dependency dep = request("-d afterok:12_3").control().dependency();

      assertThat(dep.conditions()).containsExactly(new Condition(Type.AFTEROK, 12, 3, 0));
      assertThat(dep.anyOf()).isFalse();
    }

    @Test
    void anyOf() {
      Dependency dep = request("--dependency=afterany:10?afternotok:11").control().dependency();

      assertThat(dep.anyOf()).isTrue();
      assertThat(dep.conditions()).extracting(Condition::type).containsExactly(Type.AFTERANY, Type.AFTERNOTOK);
    }
  }

  @Nested
  class Exclusivity {
    @Test
    void notExclusiveByDefault() {
      assertThat(request("-N 1").resources().exclusive()).isEqualTo(Exclusive.NO);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"--exclusive, NODE", "--exclusive=user, USER", "--exclusive=mcs, MCS", "--exclusive=topo, TOPO"})
    void exclusiveForms(String option, Exclusive expected) {
      assertThat(request(option).resources().exclusive()).isEqualTo(expected);
    }

    /** Slurm compares --exclusive's argument case-insensitively (xstrcasecmp); see the report. */
    @Test
    void exclusiveValueIsCaseInsensitiveAsInSlurm() {
      assertThat(request("--exclusive=USER").resources().exclusive()).isEqualTo(Exclusive.USER);
    }
  }

  @Nested
  class Signals {
    @ParameterizedTest(name = "--signal={0}")
    @CsvSource({
        "USR1,        USR1, 10, 60,  false, false",
        "B:USR1@120,  USR1, 10, 120, true,  false",
        "SIGTERM,     TERM, 15, 60,  false, false",
        "10,          USR1, 10, 60,  false, false",
        "R:USR2@30,   USR2, 12, 30,  false, true",
        "sigint@0,    INT,  2,  0,   false, false",
        "B:TERM@65535, TERM, 15, 65535, true, false"})
    void signalForms(String value, String name, int number, int seconds, boolean batchOnly, boolean reservation) {
      SignalSpec s = request("--signal=" + value).control().signal();

      assertThat(s).isEqualTo(new SignalSpec(name, number, seconds, batchOnly, reservation));
    }

    @Test
    void defaultLeadTimeIsSixtySeconds() {
      assertThat(request("--signal=USR1").control().signal().seconds()).isEqualTo(60);
    }
  }

  @Nested
  class Constraints {
    @Test
    void and() {
      Constraint c = request("--constraint=a&b").placement().constraint();

      assertThat(c).isEqualTo(new And(List.of(new Feature("a", 0), new Feature("b", 0))));
      assertThat(c.alternatives()).containsExactly(c);
      assertThat(c.counts()).isEmpty();
      assertThat(c.admits(Set.of("a", "b"))).isTrue();
      assertThat(c.admits(Set.of("a"))).isFalse();
    }

    @Test
    void or() {
      Constraint c = request("--constraint=a|b").placement().constraint();

      assertThat(c).isEqualTo(new Or(List.of(new Feature("a", 0), new Feature("b", 0))));
      assertThat(c.alternatives()).containsExactly(c);
      assertThat(c.admits(Set.of("b"))).isTrue();
      assertThat(c.admits(Set.of("c"))).isFalse();
    }

    @Test
    void matchingOr() {
      JobRequest.Placement p = request("--constraint=[a|b]").placement();

      assertThat(p.constraint()).isEqualTo(new Matching(new Or(List.of(new Feature("a", 0), new Feature("b", 0)))));
      assertThat(p.constraint().alternatives()).containsExactly(new Feature("a", 0), new Feature("b", 0));
      assertThat(p.constraintText()).isEqualTo("[a|b]");
    }

    @Test
    void matchingOrCombinedWithAnd() {
      Constraint c = request("-C [a|b]&c").placement().constraint();

      assertThat(c.alternatives()).containsExactly(
          new And(List.of(new Feature("a", 0), new Feature("c", 0))),
          new And(List.of(new Feature("b", 0), new Feature("c", 0))));
    }

    @Test
    void count() {
      Constraint c = request("--constraint=a*2").placement().constraint();

      assertThat(c).isEqualTo(new Feature("a", 2));
      assertThat(c.counts()).containsExactly(new Feature("a", 2));
      assertThat(c.alternatives()).containsExactly(c);
    }

    @Test
    void countsInsideMatchingBrackets() {
      Constraint c = request("--constraint=[rack1*2&rack2*4]").placement().constraint();

      assertThat(c.counts()).containsExactly(new Feature("rack1", 2), new Feature("rack2", 4));
    }

    @Test
    void parenthesesGroup() {
      Constraint c = request("--constraint=(a|b)&c").placement().constraint();

      assertThat(c).isEqualTo(new And(List.of(new Or(List.of(new Feature("a", 0), new Feature("b", 0))),
          new Feature("c", 0))));
    }
  }

  @Nested
  class Hosts {
    @Test
    void nodelistExpands() {
      assertThat(request("--nodelist=gpu[001-003,010]").placement().nodelist())
          .containsExactly("gpu001", "gpu002", "gpu003", "gpu010");
    }

    @Test
    void shortNodelistAndExclude() {
      JobRequest.Placement p = request("-w gpu[1-2]", "-x gpu[5-6],cpu1").placement();

      assertThat(p.nodelist()).containsExactly("gpu1", "gpu2");
      assertThat(p.exclude()).containsExactly("gpu5", "gpu6", "cpu1");
    }

    @Test
    void partitionsInOrderWithoutDuplicates() {
      assertThat(request("-p gpu,cpu,gpu").placement().partitions()).containsExactly("gpu", "cpu");
    }
  }

  @Nested
  class Begin {
    @ParameterizedTest(name = "--begin={0} -> {1}")
    @CsvSource({
        "now,                 2026-06-15T12:00:00Z",
        "now+1hour,           2026-06-15T13:00:00Z",
        "now+90,              2026-06-15T12:01:30Z",
        "now+30minutes,       2026-06-15T12:30:00Z",
        "now+2days,           2026-06-17T12:00:00Z",
        "now+1week,           2026-06-22T12:00:00Z",
        "2026-12-01T10:00:00, 2026-12-01T10:00:00Z",
        "2026-12-01T10:00,    2026-12-01T10:00:00Z",
        "2026-12-01,          2026-12-01T00:00:00Z",
        "16:00,               2026-06-15T16:00:00Z",
        "9:30,                2026-06-16T09:30:00Z",
        "teatime,             2026-06-15T16:00:00Z",
        "fika,                2026-06-15T15:00:00Z",
        "noon,                2026-06-16T12:00:00Z",
        "midnight,            2026-06-16T00:00:00Z",
        "today,               2026-06-15T00:00:00Z",
        "tomorrow,            2026-06-16T00:00:00Z",
        "12/24,               2026-12-24T00:00:00Z",
        "12/24/27,            2027-12-24T00:00:00Z"})
    void beginForms(String value, String expected) {
      assertThat(request("--begin=" + value).timing().begin()).isEqualTo(Instant.parse(expected));
    }

    @Test
    void relativeToTheGivenNow() {
      assertThat(request("--begin=now+1hour").timing().begin()).isEqualTo(NOW.plus(Duration.ofHours(1)));
    }

    @Test
    void datesAreReadInTheSubmittersZone() {
      SbatchParser stockholm = new SbatchParser(ZoneId.of("Europe/Stockholm"));

      JobRequest r = stockholm.parse(directives("--begin=2026-12-01T10:00:00"), SCRIPT_NAME, List.of(), NOW).request();

      assertThat(r.timing().begin()).isEqualTo(Instant.parse("2026-12-01T09:00:00Z"));
    }

    /**
     * sbatch(1), --begin: a date without a year whose time has passed this year means next year.
     * Squall always uses the current year; see the report.
     */
    @Test
    void monthDayAlreadyPassedMeansNextYearAsInSlurm() {
      assertThat(request("--begin=01/10").timing().begin()).isEqualTo(Instant.parse("2027-01-10T00:00:00Z"));
    }

    /** Slurm's parse_time also knows "elevenses" (11:00); Squall does not; see the report. */
    @Test
    void elevensesAsInSlurm() {
      assertThat(request("--begin=elevenses").timing().begin()).isEqualTo(Instant.parse("2026-06-16T11:00:00Z"));
    }

    @Test
    void deadline() {
      JobRequest.Timing t = request("--begin=now+1hour", "--deadline=2026-06-16T12:00:00").timing();

      assertThat(t.deadline()).isEqualTo(Instant.parse("2026-06-16T12:00:00Z"));
    }
  }

  @Nested
  class Requeue {
    @Test
    void notGiven() {
      assertThat(request("-N 1").control().requeue()).isNull();
    }

    @Test
    void laterDirectiveWins() {
      assertThat(request("--requeue", "--no-requeue").control().requeue()).isFalse();
      assertThat(request("--no-requeue", "--requeue").control().requeue()).isTrue();
    }

    /** getopt_long processes a line's words in order; the last of the two flags wins. See the report. */
    @Test
    void laterFlagOnTheSameLineWins() {
      assertThat(request("--no-requeue --requeue").control().requeue()).isTrue();
      assertThat(request("--requeue --no-requeue").control().requeue()).isFalse();
    }

    @Test
    void explicitNoRequeueOverridesTheScript() {
      assertThat(parse(directives("--requeue"), "--no-requeue").request().control().requeue()).isFalse();
    }

    /** Same rule as on one line: the later explicit flag wins. See the report. */
    @Test
    void laterExplicitFlagWins() {
      assertThat(parse(directives("-N 1"), "--no-requeue", "--requeue").request().control().requeue()).isTrue();
    }
  }

  @Nested
  class ExplicitOptions {
    @Test
    void explicitTimeOverridesTheDirective() {
      SbatchParser.Result result = parse(directives("--time=10"), "--time=20");

      assertThat(result.request().timing().timeLimitMinutes()).isEqualTo(20);
    }

    @Test
    void explicitMemPerCpuReplacesTheScriptsMemWithoutError() {
      JobRequest.Resources r = parse(directives("--mem=4G"), "--mem-per-cpu=1G").request().resources();

      assertThat(r.memPerNodeMb()).isNull();
      assertThat(r.memPerCpuMb()).isEqualTo(1024L);
    }

    @Test
    void explicitMemReplacesTheScriptsMemPerGpu() {
      JobRequest.Resources r = parse(directives("--mem-per-gpu=10G"), "--mem=64G").request().resources();

      assertThat(r.memPerGpuMb()).isNull();
      assertThat(r.memPerNodeMb()).isEqualTo(65536L);
    }

    @Test
    void explicitOptionsTakeSeparateValues() {
      JobRequest r = parse(directives("-N 4", "-p cpu"), "-N", "2", "--partition", "gpu").request();

      assertThat(r.resources().nodesMin()).isEqualTo(2);
      assertThat(r.placement().partitions()).containsExactly("gpu");
    }

    @Test
    void explicitJobNameOverridesDirectiveAndScriptName() {
      assertThat(parse(directives("-J fromscript"), "--job-name=explicit").request().jobName()).isEqualTo("explicit");
    }

    @Test
    void explicitOptionsAloneWithoutDirectives() {
      JobRequest r = parse(script("# no directives"), "--gpus-per-node=4", "-t", "1-0").request();

      assertThat(r.resources().gpusPerNode()).isEqualTo(4);
      assertThat(r.timing().timeLimitMinutes()).isEqualTo(1440);
      assertThat(r.jobName()).isEqualTo(SCRIPT_NAME);
    }
  }

  @Nested
  class LongOptionPrefixes {
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.squall.core.sbatch.OptionSemanticsTest#unambiguousPrefixes")
    void unambiguousPrefixSelectsTheOption(String directive, Check check) {
      check.on(request(directive));
    }

    @ParameterizedTest(name = "exact {0} wins over longer options")
    @CsvSource({"--mem=1G", "--time=5", "--gres=gpu", "--gpus=1", "--nodes=1", "--ntasks=1", "--exclusive"})
    void exactNameWinsOverLongerOptionsWithThatPrefix(String directive) {
      assertThat(parse(directives(directive)).warnings()).isEmpty();
    }

    @Test
    void noIsAmbiguous() {
      SbatchException e = directiveFailure("--no");

      assertThat(e.reason()).isEqualTo(
          "ambiguous option, could be --no-kill, --no-requeue, --nodefile, --nodelist, --nodes");
    }

    @Test
    void timIsAmbiguousBetweenTimeAndTimeMin() {
      assertThat(directiveFailure("--tim=5").reason()).isEqualTo("ambiguous option, could be --time, --time-min");
    }

    @Test
    void memPerIsAmbiguous() {
      assertThat(directiveFailure("--mem-per=1G").reason())
          .isEqualTo("ambiguous option, could be --mem-per-cpu, --mem-per-gpu");
    }

    /** Real sbatch also has --export-file, so getopt_long finds "--exp" ambiguous. */
    @Test
    void expIsAmbiguousBecauseOfExportFileAsInSlurm() {
      assertThat(directiveFailure("--exp=ALL").reason()).startsWith("ambiguous option");
    }
  }

  @Nested
  class ShortOptions {
    @Test
    void flagFollowedByOptionWithAttachedValue() {
      JobRequest r = request("-HN2");

      assertThat(r.control().hold()).isTrue();
      assertThat(r.resources().nodesMin()).isEqualTo(2);
    }

    @Test
    void flagGroupWhoseLastLetterTakesTheNextWord() {
      JobRequest r = request("-Hp gpu");

      assertThat(r.control().hold()).isTrue();
      assertThat(r.placement().partitions()).containsExactly("gpu");
    }

    @Test
    void attachedAndSeparateValuesAreEquivalent() {
      assertThat(request("-n16")).usingRecursiveComparison().ignoringFields("script")
          .isEqualTo(request("-n 16"));
    }

    @Test
    void severalOptionsOnOneLine() {
      JobRequest r = request("-N 2 -n 8 --cpus-per-task=4 -J two-words");

      assertThat(r.resources().nodesMin()).isEqualTo(2);
      assertThat(r.resources().ntasks()).isEqualTo(8);
      assertThat(r.resources().cpusPerTask()).isEqualTo(4);
      assertThat(r.jobName()).isEqualTo("two-words");
    }
  }

  @Nested
  class Scanning {
    @Test
    void jobNameDefaultsToTheScriptName() {
      assertThat(request("-N 1").jobName()).isEqualTo(SCRIPT_NAME);
    }

    @Test
    void windowsLineEndings() {
      String crlf = "#!/bin/bash\r\n#SBATCH --time=7\r\n#SBATCH -J crlf\r\nsrun true\r\n";

      JobRequest r = parse(crlf).request();

      assertThat(r.timing().timeLimitMinutes()).isEqualTo(7);
      assertThat(r.jobName()).isEqualTo("crlf");
    }

    @Test
    void indentedSbatchIsAComment() {
      assertThat(parse(script("  #SBATCH --time=5")).request().timing().timeLimitMinutes()).isNull();
    }

    @Test
    void commentsAndBlankLinesDoNotEndTheDirectives() {
      JobRequest r = parse(script("# set up", "", "#SBATCH --time=5", "   ", "## more", "#SBATCH -J x")).request();

      assertThat(r.timing().timeLimitMinutes()).isEqualTo(5);
      assertThat(r.jobName()).isEqualTo("x");
    }

    @Test
    void singleQuotesGroupToo() {
      assertThat(request("--job-name='a b'").jobName()).isEqualTo("a b");
    }

    @Test
    void quotesInTheMiddleOfAWord() {
      assertThat(request("--comment=\"two words\"more").control().comment()).isEqualTo("two wordsmore");
    }

    @Test
    void hashInsideQuotesIsKept() {
      assertThat(request("--comment=\"run #2\"").control().comment()).isEqualTo("run #2");
    }

    /**
     * sbatch's _get_argument ends the line at any unquoted, unescaped '#', also inside a word: the
     * job name is "run". Squall only treats '#' as a comment at the start of a word; see the report.
     */
    @Test
    void unquotedHashInsideAWordStartsACommentAsInSlurm() {
      assertThat(request("--job-name=run#2").jobName()).isEqualTo("run");
    }

    /** sbatch's _get_argument honours backslash escapes; see the report. */
    @Test
    void backslashEscapesASpaceAsInSlurm() {
      assertThat(request("--job-name=my\\ job").jobName()).isEqualTo("my job");
    }

    @Test
    void invalidDirectiveAfterTheFirstCommandIsNotAnError() {
      String s = "#!/bin/bash\n#SBATCH -N 1\necho hi\n#SBATCH --time=25:61:00\n";

      SbatchParser.Result result = parse(s);

      assertThat(result.request().timing().timeLimitMinutes()).isNull();
      assertThat(result.warnings()).containsExactly("line 4: #SBATCH after the first command is ignored, as sbatch does");
    }
  }

  @Nested
  class Misc {
    @Test
    void holdNiceAndPriority() {
      JobRequest.Control c = request("--hold", "--nice", "--priority=10").control();

      assertThat(c.hold()).isTrue();
      assertThat(c.nice()).isEqualTo(100);
      assertThat(c.priority()).isEqualTo(10L);
    }

    @Test
    void niceWithValue() {
      assertThat(request("--nice=-5").control().nice()).isEqualTo(-5);
    }

    @Test
    void filesAndEnvironment() {
      JobRequest.Files f = request("-o out-%j.log", "-e err-%j.log", "-i /dev/null", "-D /scratch/run",
          "--export=ALL,FOO=bar", "--container-image=nvcr.io/nvidia/pytorch:24.05").files();

      assertThat(f.output()).isEqualTo("out-%j.log");
      assertThat(f.error()).isEqualTo("err-%j.log");
      assertThat(f.input()).isEqualTo("/dev/null");
      assertThat(f.chdir()).isEqualTo("/scratch/run");
      assertThat(f.export()).isEqualTo("ALL,FOO=bar");
      assertThat(f.containerImage()).isEqualTo("nvcr.io/nvidia/pytorch:24.05");
    }

    @Test
    void switchesWithWait() {
      JobRequest.Placement p = request("--switches=2@1:00:00").placement();

      assertThat(p.switches()).isEqualTo(2);
      assertThat(p.switchesWaitMinutes()).isEqualTo(60);
    }

    @Test
    void waitAllNodes() {
      assertThat(request("--wait-all-nodes=1").control().waitAllNodes()).isTrue();
      assertThat(request("--wait-all-nodes=0").control().waitAllNodes()).isFalse();
    }
  }
}
