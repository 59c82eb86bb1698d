package io.squall.core.sbatch;

import static io.squall.core.sbatch.ParserFixtures.directiveFailure;
import static io.squall.core.sbatch.ParserFixtures.directives;
import static io.squall.core.sbatch.ParserFixtures.parse;
import static io.squall.core.sbatch.ParserFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * "A script that real Slurm accepts is never rejected": every sbatch(1) option (Slurm 22.05 and
 * later, as slurm_opt.c gives them to sbatch) is accepted with a valid value, those Squall cannot
 * honour are stored and warned about, and values are refused only where Slurm refuses them.
 */
class SbatchOptionTableTest {

  /** One row per sbatch option: the directive with a valid value, and whether Squall honours it. */
  static Stream<Arguments> everyOption() {
    return Stream.of(
        row("--account=ml", true), row("--acctg-freq=task=30,energy=0", false), row("--array=0-3", true),
        row("--autocomplete=--nod", false), row("--batch=gpu", false), row("--bb=\"capacity=1G\"", false),
        row("--bbf=bb.conf", false), row("--begin=now+1hour", true), row("--chdir=/tmp", true),
        row("--cluster=other", false), row("--cluster-constraint=east", false), row("--clusters=a,b", false),
        row("--comment=hello", true), row("--constraint=h100", true), row("--container=/oci/bundle", false),
        row("--container-id=abc", false), row("--container-image=nvcr.io/nvidia/pytorch:24.01-py3", true),
        row("--context=unconfined_u", false), row("--contiguous", false), row("--core-spec=2", false),
        row("--cores-per-socket=8", false), row("--cpu-freq=low-high:performance", false),
        row("--cpus-per-gpu=4", true), row("--cpus-per-task=4", true), row("--deadline=now+2days", true),
        row("--delay-boot=10:00", false), row("--dependency=singleton", true), row("--distribution=block", true),
        row("--error=err.%j", true), row("--exclude=gpu1", true), row("--exclusive", true),
        row("--export=ALL", true), row("--export-file=env.txt", false), row("--extra=rack=1", false),
        row("--extra-node-info=2:8:1", false), row("--get-user-env=10L", false), row("--gid=staff", false),
        row("--gpu-bind=closest", true), row("--gpu-freq=high,memory=low", false), row("--gpus=h100:8", true),
        row("--gpus-per-node=8", true), row("--gpus-per-socket=2", false), row("--gpus-per-task=1", true),
        row("--gres=gpu:h100:8", true), row("--gres-flags=enforce-binding", false), row("--help", false),
        row("--hint=nomultithread", true), row("--hold", true), row("--ignore-pbs", false),
        row("--input=/dev/null", true), row("--job-name=train", true), row("--kill-on-invalid-dep=yes", false),
        row("--licenses=matlab:2", false), row("--mail-type=END,FAIL", false), row("--mail-user=me@x.org", false),
        row("--mcs-label=group", false), row("--mem=64G", true), row("--mem-bind=local", false),
        row("--mem-per-cpu=4G", true), row("--mem-per-gpu=80G", true), row("--mincpus=16", false),
        row("--network=sn_all", false), row("--nice=10", true), row("--no-kill", false), row("--no-requeue", true),
        row("--nodefile=hosts.txt", false), row("--nodelist=gpu1", true), row("--nodes=2", true),
        row("--ntasks=8", true), row("--ntasks-per-core=1", false), row("--ntasks-per-gpu=1", true),
        row("--ntasks-per-node=8", true), row("--ntasks-per-socket=4", false), row("--ntasks-per-tres=1", true),
        row("--open-mode=append", true), row("--output=out.%j", true), row("--overcommit", false),
        row("--oversubscribe", false), row("--parsable", false), row("--partition=gpu", true),
        row("--power=level", false), row("--prefer=h100", false), row("--priority=TOP", true),
        row("--profile=energy,task", false), row("--propagate=STACK", false), row("--qos=normal", true),
        row("--quiet", false), row("--reboot", false), row("--requeue", true), row("--reservation=maint", true),
        row("--segment=2", false), row("--signal=B:USR1@120", true), row("--sockets-per-node=2", false),
        row("--spread-job", false), row("--stepmgr", false), row("--switches=1@10:00", true),
        row("--tasks-per-node=8", true), row("--test-only", false), row("--thread-spec=2", false),
        row("--threads-per-core=1", false), row("--time=1-25:00:00", true), row("--time-min=60", true),
        row("--tmp=100G", false), row("--tres-bind=gres/gpu:closest", false),
        row("--tres-per-task=cpu=2,gres/gpu:1", false), row("--uid=alice", false), row("--usage", false),
        row("--use-min-nodes", false), row("--verbose", false), row("--version", false), row("--wait", false),
        row("--wait-all-nodes=1", true), row("--wckey=project", false), row("--wrap=hostname", false));
  }

  private static Arguments row(String directive, boolean honoured) {
    return Arguments.of(directive, honoured);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyOption")
  void everySbatchOptionIsAccepted(String directive, boolean honoured) {
    SbatchParser.Result result = parse(directives(directive));

    String name = directive.substring(2).split("=", 2)[0];
    String canonical = SbatchOption.byLong(name).canonical().longName();
    if (honoured) {
      assertThat(result.warnings()).noneMatch(w -> w.contains("not honoured"));
      assertThat(result.request().unhonoured()).doesNotContainKey(canonical);
    } else {
      assertThat(result.warnings()).anyMatch(w -> w.startsWith("line 2: --" + name) && w.contains(
          "is accepted but not honoured: " + SbatchOption.byLong(name).notHonoured()));
      assertThat(result.request().unhonoured()).containsKey(canonical);
    }
  }

  /** The table above names every option Squall knows, so a new one cannot go untested. */
  @Test
  void theTableCoversEveryOption() {
    Set<String> inTable = new TreeSet<>();
    everyOption().forEach(a -> inTable.add(((String) a.get()[0]).substring(2).split("=", 2)[0]));
    Set<String> known = new TreeSet<>();
    Arrays.stream(SbatchOption.values()).forEach(o -> known.add(o.longName()));

    assertThat(inTable).isEqualTo(known);
  }

  @Test
  void shortLettersAreSlurms() {
    JobRequest r = request("-B 2:8:1", "-F hosts", "-k", "-L lic:1", "-M c1", "-O", "-Q", "-s", "-S 1", "-v", "-W");

    assertThat(r.unhonoured()).containsOnlyKeys("clusters", "extra-node-info", "licenses", "no-kill", "nodefile",
        "overcommit", "oversubscribe", "core-spec", "quiet", "verbose", "wait");
  }

  @Test
  void storedValuesAreKeptAsGivenInTheRequest() {
    JobRequest r = request("--licenses=matlab:2", "--wckey=proj", "--get-user-env", "--comment=");

    assertThat(r.unhonoured()).containsEntry("licenses", "matlab:2").containsEntry("wckey", "proj")
        .containsEntry("get-user-env", "");
    assertThat(JobRequestView.of(r).get("unhonoured")).isEqualTo(r.unhonoured());
  }

  /** Slurm stores these strings as given, empty ones too. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"--comment=", "--licenses=", "--wckey=", "--mail-user=", "--extra=", "--prefer="})
  void emptyValuesSlurmAccepts(String directive) {
    assertThat(parse(directives(directive)).request()).isNotNull();
  }

  @Test
  void emptyCommentIsKept() {
    assertThat(request("--comment=").control().comment()).isEmpty();
  }

  @Test
  void anOtherNameIsTheSameOption() {
    JobRequest r = request("--tasks-per-node=4", "--ntasks-per-tres=2", "--cluster=c2");

    assertThat(r.resources().ntasksPerNode()).isEqualTo(4);
    assertThat(r.resources().ntasksPerGpu()).isEqualTo(2);
    assertThat(r.unhonoured()).containsEntry("clusters", "c2");
  }

  /** Options sbatch reads itself (slurm_opt.c: sbatch_early_pass) or that steer the client are valid in a script. */
  @Test
  void clientOptionsAreValidInAScript() {
    SbatchParser.Result r = parse(directives("--parsable", "--wait", "--test-only", "--quiet", "--wrap=hostname"));

    assertThat(r.warnings()).hasSize(5);
  }

  /** slurm_opt.c gives these no sbatch setter, so sbatch's getopt refuses them. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"x11", "immediate", "het-group=0", "resv-ports", "cpu-bind=cores", "exact"})
  void srunAndSallocOptionsAreRefusedAsSbatchRefusesThem(String option) {
    String name = option.split("=")[0];

    assertThat(directiveFailure("--" + option).reason())
        .isEqualTo("unrecognized option --" + name + " (an srun/salloc option: sbatch refuses it too)");
  }

  @ParameterizedTest(name = "--nodes={0} -> {1}..{2}")
  @CsvSource({"1k, 1024, 1024", "-4, 1, 4", "0-4, 1, 4", "' 2 - 3 ', 2, 3", "+2, 2, 2"})
  void nodeCountsAsSlurmReadsThem(String value, int min, int max) {
    JobRequest r = request("--nodes=\"" + value + "\"");

    assertThat(r.resources().nodesMin()).isEqualTo(min);
    assertThat(r.resources().nodesMax()).isEqualTo(max);
  }

  @Test
  void aMaximumOfZeroIsNoneInSlurmAndTheMinimumHere() {
    SbatchParser.Result r = parse(directives("--nodes=2-0"));

    assertThat(r.request().resources().nodesMax()).isEqualTo(2);
    assertThat(r.warnings()).containsExactly("line 2: --nodes=2-0: Slurm reads a maximum of 0 as none; Squall starts"
        + " the job on its minimum of 2 nodes");
  }

  @ParameterizedTest(name = "--exclusive={0}")
  @CsvSource({"exclusive, NODE", "oversubscribe, NO", "USER, USER"})
  void exclusiveTakesSlurmsValues(String value, Exclusive expected) {
    assertThat(request("--exclusive=" + value).resources().exclusive()).isEqualTo(expected);
  }

  @Test
  void aNodeListFileIsAcceptedWithAWarning() {
    SbatchParser.Result r = parse(directives("--nodelist=./hosts"));

    assertThat(r.request().placement().nodelist()).isEmpty();
    assertThat(r.warnings()).singleElement().asString().startsWith("line 2: --nodelist=./hosts names a file");
  }

  /** Values Slurm's own setters refuse are refused here, naming the line and the directive. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "--nodes=1-          | no maximum node count after '-' (sbatch refuses it too: Maximum node count -1 is less"
          + " than minimum node count 1); write 1 or 1-N",
      "--nodes=2x          | \"2x\" is not a valid node count",
      "--core-spec=abc     | expected a whole number of at least 0, got 'abc'",
      "--threads-per-core=0 | expected a whole number of at least 1, got '0'",
      "--cpu-freq=fast     | invalid value 'fast': expected low, medium, high, highm1 or kHz, optionally -max and"
          + " :governor",
      "--gpu-freq=turbo    | invalid value 'turbo': expected low, medium, high, highm1 or MHz, memory=..., verbose",
      "--acctg-freq=task=x | invalid value 'task=x': expected datatype=seconds, datatype one of task, energy,"
          + " network, filesystem",
      "--delay-boot=soon   | invalid time 'soon': expected M, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED",
      "--extra-node-info=a | invalid value 'a': expected sockets[:cores[:threads]], each N, min-max or *",
      "--get-user-env=10X  | expected seconds with an optional S or L, e.g. 10L",
      "--gres-flags=allow-task-sharing | --gres-flags=allow-task-sharing is only used with srun",
      "--gres-flags=disable-binding,enforce-binding | disable-binding and enforce-binding are mutually exclusive",
      "--kill-on-invalid-dep=maybe | unknown value 'maybe': use no, yes",
      "--mem-bind=nearby   | unknown memory binding 'nearby': use none, local, rank, map_mem:, mask_mem:, sort,"
          + " nosort, prefer, verbose or quiet",
      "--no-kill=always    | unknown value 'always': use no, off, set",
      "--profile=gpu       | unknown value 'gpu': use all, energy, lustre, network, none, task",
      "--tmp=lots          | bad memory size 'lots': expected a number with K, M, G or T",
      "--tres-per-task=mem=4G | Invalid TRES for --tres-per-task: mem",
      "--gpus-per-socket=h100:0 | expected [type:]count with a count of at least 1, e.g. h100:4",
      "--exclusive=sometimes | expected --exclusive or --exclusive=exclusive, oversubscribe, user, mcs or topo"})
  void malformedValuesAreRefusedAsSlurmRefusesThem(String directive, String reason) {
    SbatchException e = directiveFailure(directive.strip());

    assertThat(e.where()).isEqualTo("line 2");
    assertThat(e.directive()).isEqualTo(directive.strip());
    assertThat(e.reason()).isEqualTo(reason.strip());
  }

  /** Pairs slurm_opt.c's validate_options_salloc_sbatch_srun refuses outright. */
  @ParameterizedTest(name = "{0} with {1}")
  @CsvSource(delimiter = '|', value = {
      "--exclusive     | --oversubscribe     | --exclusive and --oversubscribe options are mutually exclusive",
      "--core-spec=1   | --thread-spec=1     | -S/--core-spec and --thread-spec options are mutually exclusive",
      "--ntasks-per-gpu=1 | --gpus-per-socket=1 | --gpus-per-socket is mutually exclusive with --ntasks-per-gpu",
      "--ntasks-per-gpu=1 | --tres-per-task=cpu=1 | --tres-per-task is mutually exclusive with --ntasks-per-gpu"})
  void pairsSlurmRefuses(String first, String second, String reason) {
    SbatchException e = directiveFailure(first.strip(), second.strip());

    assertThat(e.where()).isEqualTo("line 3");
    assertThat(e.reason()).isEqualTo(reason.strip());
  }
}
