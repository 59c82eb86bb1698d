package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StepLayoutTest {
  private static final List<String> NODES = List.of("n1", "n2", "n3");

  private static SrunOptions options(String line) throws StepException {
    List<String> args = new ArrayList<>(Arrays.asList(line.isBlank() ? new String[0] : line.trim().split(" +")));
    args.add("true");
    return SrunOptions.parse(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
  }

  /** Tasks per node, e.g. {@code 2/1}, for a command line and the job's SLURM_NTASKS. */
  private static String shape(String line, String jobTasks) throws StepException {
    Map<String, String> env = jobTasks.isEmpty() ? Map.of() : Map.of("SLURM_NTASKS", jobTasks);
    StepLayout layout = StepLayout.plan(options(line), NODES, env, "42");
    List<String> counts = new ArrayList<>();
    layout.nodes().forEach(n -> counts.add(Integer.toString(n.tasks().size())));
    return String.join("/", counts);
  }

  @ParameterizedTest(name = "srun {0} with SLURM_NTASKS={1}: {2}")
  @CsvSource(delimiter = ';', value = {
      "'';       '';  1/1/1",
      "'';       6;   2/2/2",
      "'';       2;   1/1",
      "-n 4;     '';  2/1/1",
      "-n4;      '';  2/1/1",
      "--ntasks=5; 2; 2/2/1",
      "-N 2;     6;   1/1",
      "-N2 -n 5; '';  3/2",
      "--ntasks-per-node=2; ''; 2/2/2",
      "--ntasks-per-node 2 -N 2; 9; 2/2",
      "--ntasks-per-node=2 -n 3; ''; 2/1",
      "-n 1;     '';  1",
      "--nodes=1-3; ''; 1",
      "-l -n 2;  '';  1/1",
  })
  void blockDistribution(String line, String jobTasks, String expected) throws StepException {
    assertThat(shape(line, jobTasks)).isEqualTo(expected);
  }

  @Test
  void ranksAreConsecutivePerNode() throws StepException {
    StepLayout layout = StepLayout.plan(options("-n 5"), NODES, Map.of(), "42");
    assertThat(layout.nodes().get(0).tasks()).extracting(Protocol.TaskSlot::procid).containsExactly(0, 1);
    assertThat(layout.nodes().get(1).tasks()).extracting(Protocol.TaskSlot::procid).containsExactly(2, 3);
    assertThat(layout.nodes().get(2).tasks()).extracting(Protocol.TaskSlot::localid).containsExactly(0);
    assertThat(layout.nodes().get(2).nodeid()).isEqualTo(2);
    assertThat(layout.nodelist()).isEqualTo("n[1-3]");
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "-N 4;  4 nodes requested but the job has only 3 (n[1-3])",
      "-N 3 -n 2; 2 tasks cannot cover 3 nodes",
      "-n 7 --ntasks-per-node=2; 7 tasks do not fit 3 nodes with --ntasks-per-node=2",
  })
  void stepsThatDoNotFitTheJob(String line, String message) {
    assertThatThrownBy(() -> StepLayout.plan(options(line), NODES, Map.of(), "42"))
        .isInstanceOf(StepException.class)
        .hasMessageStartingWith("Unable to create step for job 42: " + message);
  }

  @Test
  void optionsEndAtTheCommand() throws StepException {
    SrunOptions o = SrunOptions.parse(List.of("-l", "--ntasks", "2", "python", "-n", "3"), System.err);
    assertThat(o.label()).isTrue();
    assertThat(o.ntasks()).isEqualTo(2);
    assertThat(o.command()).containsExactly("python", "-n", "3");
    assertThat(SrunOptions.parse(List.of("--", "-weird"), System.err).command()).containsExactly("-weird");
  }

  @Test
  void badOptions() {
    assertThatThrownBy(() -> options("--frobnicate")).hasMessageStartingWith("unrecognized option '--frobnicate'");
    assertThatThrownBy(() -> options("-n 0")).hasMessageContaining("invalid -n '0'");
    assertThatThrownBy(() -> options("-x")).hasMessageStartingWith("unrecognized option '-x'");
  }

  @Test
  void bindingOptionsAreAcceptedWithAWarning() throws StepException {
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    SrunOptions o = SrunOptions.parse(List.of("--cpu-bind=none", "--mpi", "pmix", "-u", "true"),
        new PrintStream(warnings, true, StandardCharsets.UTF_8));
    assertThat(o.command()).containsExactly("true");
    assertThat(warnings.toString(StandardCharsets.UTF_8))
        .contains("srun: warning: --cpu-bind=none is ignored here")
        .contains("srun: warning: --mpi=pmix is ignored here");
  }
}
