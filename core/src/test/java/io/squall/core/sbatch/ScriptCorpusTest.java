package io.squall.core.sbatch;

import static io.squall.core.sbatch.ParserFixtures.NOW;
import static io.squall.core.sbatch.ParserFixtures.PARSER;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.sbatch.Dependency.Condition;
import io.squall.core.sbatch.Dependency.Type;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Realistic batch scripts from src/test/resources/sbatch, parsed end to end. */
class ScriptCorpusTest {

  private String load(String name) {
    try (InputStream in = getClass().getResourceAsStream("/sbatch/" + name)) {
      assertThat(in).as("test resource /sbatch/%s", name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private SbatchParser.Result parseFile(String name) {
    return PARSER.parse(load(name), name, List.of(), NOW);
  }

  @ParameterizedTest
  @ValueSource(strings = {"torchrun_multinode.sbatch", "sweep_array.sbatch", "dependency_all.sbatch",
      "dependency_any.sbatch", "checkpoint_requeue.sbatch", "short_options.sbatch",
      "quoted_comments.sbatch", "late_directives.sbatch"})
  void everyCorpusScriptParsesAndKeepsItsText(String name) {
    String text = load(name);

    SbatchParser.Result result = PARSER.parse(text, name, List.of(), NOW);

    assertThat(result.request().script()).isEqualTo(text);
  }

  @Test
  void torchrunTrainingJobResources() {
    SbatchParser.Result result = parseFile("torchrun_multinode.sbatch");
    JobRequest.Resources r = result.request().resources();

    assertThat(result.warnings()).isEmpty();
    assertThat(result.request().jobName()).isEqualTo("llama-pretrain");
    assertThat(r.nodesMin()).isEqualTo(4);
    assertThat(r.nodesMax()).isEqualTo(4);
    assertThat(r.ntasks()).isNull();
    assertThat(r.ntasksPerNode()).isEqualTo(1);
    assertThat(r.cpusPerTask()).isEqualTo(96);
    assertThat(r.gpus()).isNull();
    assertThat(r.gpusPerNode()).isEqualTo(8);
    assertThat(r.gpusPerTask()).isNull();
    assertThat(r.gpuType()).isEqualTo("h100");
    assertThat(r.memPerNodeMb()).isZero();
    assertThat(r.memPerCpuMb()).isNull();
    assertThat(r.memPerGpuMb()).isNull();
    assertThat(r.exclusive()).isEqualTo(Exclusive.NODE);
  }

  @Test
  void torchrunTrainingJobPlacementTimingFilesAndControl() {
    JobRequest request = parseFile("torchrun_multinode.sbatch").request();

    JobRequest.Placement p = request.placement();
    assertThat(p.partitions()).containsExactly("h100");
    assertThat(p.constraintText()).isEqualTo("[ib-island1|ib-island2]");
    assertThat(p.constraint().alternatives())
        .containsExactly(new Constraint.Feature("ib-island1", 0), new Constraint.Feature("ib-island2", 0));
    assertThat(p.nodelist()).isEmpty();
    assertThat(p.exclude()).isEmpty();

    assertThat(request.timing().timeLimitMinutes()).isEqualTo(2 * 24 * 60);
    assertThat(request.timing().timeMinMinutes()).isNull();
    assertThat(request.timing().begin()).isNull();

    assertThat(request.files().output()).isEqualTo("logs/%x-%j.out");
    assertThat(request.files().error()).isNull();

    JobRequest.Control c = request.control();
    assertThat(c.requeue()).isTrue();
    assertThat(c.signal()).isEqualTo(new SignalSpec("USR1", 10, 300, true, false));
    assertThat(c.array()).isNull();
    assertThat(c.dependency()).isNull();
    assertThat(c.hold()).isFalse();
  }

  @Test
  void hyperparameterSweepArray() {
    SbatchParser.Result result = parseFile("sweep_array.sbatch");
    JobRequest request = result.request();

    assertThat(result.warnings()).isEmpty();
    assertThat(request.jobName()).isEqualTo("hp-sweep");
    ArraySpec array = request.control().array();
    assertThat(array.taskIds()).containsExactly(0, 10, 20, 30, 40, 50, 60, 70, 80, 90);
    assertThat(array.maxRunning()).isEqualTo(4);
    assertThat(array.taskList()).isEqualTo("0,10,20,30,40,50,60,70,80,90");
    assertThat(request.resources().gpusPerNode()).isEqualTo(1);
    assertThat(request.resources().gpuType()).isNull();
    assertThat(request.resources().cpusPerTask()).isEqualTo(8);
    assertThat(request.resources().memPerCpuMb()).isEqualTo(4096L);
    assertThat(request.resources().memPerNodeMb()).isNull();
    assertThat(request.resources().nodesMin()).isNull();
    assertThat(request.resources().exclusive()).isEqualTo(Exclusive.NO);
    assertThat(request.timing().timeLimitMinutes()).isEqualTo(30);
    assertThat(request.files().output()).isEqualTo("logs/sweep_%A_%a.out");
    assertThat(request.files().error()).isEqualTo("logs/sweep_%A_%a.err");
    assertThat(request.placement().partitions()).containsExactly("gpu");
    assertThat(request.control().requeue()).isNull();
  }

  @Test
  void dependencyOnAllOfTwoJobs() {
    SbatchParser.Result result = parseFile("dependency_all.sbatch");
    JobRequest request = result.request();

    assertThat(result.warnings()).isEmpty();
    assertThat(request.jobName()).as("no --job-name: the script's name").isEqualTo("dependency_all.sbatch");
    Dependency dep = request.control().dependency();
    assertThat(dep.anyOf()).isFalse();
    assertThat(dep.conditions()).containsExactly(
        new Condition(Type.AFTEROK, 4242, null, 0), new Condition(Type.AFTEROK, 4243, null, 0));
    assertThat(dep).hasToString("afterok:4242,afterok:4243");
    assertThat(request.resources().ntasks()).isEqualTo(1);
    assertThat(request.resources().cpusPerTask()).isEqualTo(4);
    assertThat(request.timing().timeLimitMinutes()).isEqualTo(60);
    assertThat(request.placement().partitions()).containsExactly("cpu");
  }

  @Test
  void dependencyOnAnyOfTwoConditions() {
    JobRequest request = parseFile("dependency_any.sbatch").request();

    Dependency dep = request.control().dependency();
    assertThat(dep.anyOf()).isTrue();
    assertThat(dep.conditions()).containsExactly(
        new Condition(Type.AFTERANY, 10, null, 0), new Condition(Type.AFTERNOTOK, 11, null, 0));
    assertThat(dep).hasToString("afterany:10?afternotok:11");
    assertThat(request.jobName()).isEqualTo("cleanup");
    assertThat(request.timing().timeLimitMinutes()).isEqualTo(5);
    assertThat(request.control().mailType()).isEqualTo("FAIL,END");
    assertThat(request.control().mailUser()).isEqualTo("ops@example.org");
  }

  @Test
  void requeueAndSignalCheckpointingJob() {
    SbatchParser.Result result = parseFile("checkpoint_requeue.sbatch");
    JobRequest request = result.request();

    assertThat(result.warnings()).isEmpty();
    assertThat(request.jobName()).isEqualTo("ckpt-train");
    assertThat(request.control().requeue()).isTrue();
    assertThat(request.control().signal()).isEqualTo(new SignalSpec("USR1", 10, 600, false, false));
    assertThat(request.control().comment()).isEqualTo("checkpointed run");
    assertThat(request.timing().timeLimitMinutes()).isEqualTo(720);
    assertThat(request.timing().timeMinMinutes()).isEqualTo(240);
    assertThat(request.files().openMode()).isEqualTo("append");
    assertThat(request.files().output()).isEqualTo("ckpt-%j.out");
    assertThat(request.resources().nodesMin()).isEqualTo(1);
    assertThat(request.resources().nodesMax()).isEqualTo(1);
    assertThat(request.resources().ntasks()).isEqualTo(1);
    assertThat(request.resources().gpus()).isEqualTo(4);
    assertThat(request.resources().gpusPerNode()).isNull();
    assertThat(request.resources().gpuType()).isEqualTo("a100");
    assertThat(request.resources().memPerGpuMb()).isEqualTo(80L * 1024);
    assertThat(request.placement().exclude()).containsExactly("gpu013", "gpu014");
    assertThat(request.placement().nodelist()).isEmpty();
  }

  @Test
  void shortOptionsWithAttachedValues() {
    SbatchParser.Result result = parseFile("short_options.sbatch");
    JobRequest request = result.request();

    assertThat(result.warnings()).isEmpty();
    assertThat(request.resources().nodesMin()).isEqualTo(2);
    assertThat(request.resources().nodesMax()).isEqualTo(2);
    assertThat(request.resources().ntasks()).isEqualTo(16);
    assertThat(request.resources().cpusPerTask()).isEqualTo(8);
    assertThat(request.timing().timeLimitMinutes()).isEqualTo(60);
    assertThat(request.placement().partitions()).containsExactly("gpu");
    assertThat(request.jobName()).isEqualTo("cfd_run");
    assertThat(request.control().account()).isEqualTo("proj42");
    assertThat(request.control().qos()).isEqualTo("high");
  }

  @Test
  void quotedValuesAndTrailingComments() {
    SbatchParser.Result result = parseFile("quoted_comments.sbatch");
    JobRequest request = result.request();

    assertThat(result.warnings()).allMatch(w -> w.contains("--mail-") && w.endsWith("Squall sends no mail"));
    assertThat(request.jobName()).isEqualTo("my job");
    assertThat(request.control().comment()).isEqualTo("nightly build");
    assertThat(request.timing().timeLimitMinutes()).as("#--time=999 is a comment").isEqualTo(15);
    assertThat(request.files().output()).isEqualTo("out dir/%j.log");
    assertThat(request.control().mailUser()).isEqualTo("alice@example.org");
  }

  @Test
  void directivesAfterTheFirstCommandAreIgnoredWithAWarning() {
    SbatchParser.Result result = parseFile("late_directives.sbatch");
    JobRequest request = result.request();

    assertThat(request.jobName()).isEqualTo("late");
    assertThat(request.timing().timeLimitMinutes()).isEqualTo(10);
    assertThat(request.placement().partitions()).isEmpty();
    assertThat(result.warnings()).containsExactly(
        "line 6: #SBATCH after the first command is ignored, as sbatch does",
        "line 7: #SBATCH after the first command is ignored, as sbatch does",
        "line 8: #SBATCH after the first command is ignored, as sbatch does");
  }
}
