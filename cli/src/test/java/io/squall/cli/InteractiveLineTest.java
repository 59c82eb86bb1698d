package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** srun's and salloc's command lines: the allocation's sbatch options, srun's own, the command. */
class InteractiveLineTest {
  @Test
  void sbatchOptionsShapeTheAllocationAndTheCommandStartsAtTheFirstWordThatIsNotOne() {
    InteractiveLine line = InteractiveLine.parse(List.of("-N", "2", "--gres=gpu:8", "-p", "gpu", "-t", "10",
        "-J", "try", "-l", "python", "-c", "print(1)", "-N", "3"), true);
    assertThat(line.options()).containsExactly("-N", "2", "--gres=gpu:8", "-p", "gpu", "-t", "10", "-J", "try");
    assertThat(line.label()).isTrue();
    assertThat(line.command()).containsExactly("python", "-c", "print(1)", "-N", "3");
    assertThat(line.nodes()).isEqualTo(2);
    assertThat(line.ntasks()).isNull();
    assertThat(line.gpuOptions()).containsExactly("--gres=gpu:8");
  }

  @Test
  void stepShapeOptionsInEveryForm() {
    InteractiveLine line = InteractiveLine.parse(List.of("-ln4", "--ntasks-per-node=2", "--nodes=2-4",
        "--export=NONE", "--", "hostname"), true);
    assertThat(line.label()).isTrue();
    assertThat(line.ntasks()).isEqualTo(4);
    assertThat(line.ntasksPerNode()).isEqualTo(2);
    assertThat(line.nodes()).as("a range leaves the step to the allocation's nodes").isNull();
    assertThat(line.export()).isEqualTo("NONE");
    assertThat(line.command()).containsExactly("hostname");
    assertThat(InteractiveLine.parse(List.of("--ntasks", "3", "-u", "--overlap", "true"), true).ntasks())
        .isEqualTo(3);
  }

  @Test
  void srunsOwnOptionsAreNotSallocs() {
    assertThatThrownBy(() -> InteractiveLine.parse(List.of("-l", "bash"), false))
        .isInstanceOf(UsageException.class).hasMessageContaining("-l");
    InteractiveLine salloc = InteractiveLine.parse(List.of("-N1", "--exclusive"), false);
    assertThat(salloc.options()).containsExactly("-N1", "--exclusive");
    assertThat(salloc.command()).isEmpty();
  }

  @Test
  void unknownOptionsAndBadCountsAreRefused() {
    assertThatThrownBy(() -> InteractiveLine.parse(List.of("--bogus", "hostname"), true))
        .isInstanceOf(UsageException.class).hasMessageContaining("--bogus");
    assertThatThrownBy(() -> InteractiveLine.parse(List.of("-p"), true))
        .isInstanceOf(UsageException.class).hasMessage("option '-p' requires an argument");
    assertThatThrownBy(() -> InteractiveLine.parse(List.of("--test-only", "hostname"), true))
        .isInstanceOf(UsageException.class).hasMessageContaining("sbatch --test-only");
    assertThatThrownBy(() -> InteractiveLine.parse(List.of("-n", "zero", "hostname"), true).ntasks())
        .isInstanceOf(UsageException.class).hasMessageContaining("invalid --ntasks 'zero'");
  }
}
