package io.squall.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** TRESBillingWeights read and applied as Slurm's tres.html "Billing Weights" says. */
class TresBillingWeightsTest {
  private static final long GB = 1024;

  /** tres.html: "a job ... allocated 1 CPU and 8 GB of memory would be billed as (1*1.0) + (8*0.25) + (0*2.0) = 3.0". */
  @Test
  void theDocumentedExampleBillsThree() {
    TresBillingWeights w = TresBillingWeights.parse("CPU=1.0,Mem=0.25G,GRES/gpu=2.0");
    assertThat(w.billing(1, 8 * GB, 0, 1)).isCloseTo(3.0, within(1e-12));
    // With a GPU, 2.0 more.
    assertThat(w.billing(1, 8 * GB, 1, 1)).isCloseTo(5.0, within(1e-12));
  }

  /** "mem=0.25 on a job allocated 8GB will result in 2048 billed units ... mem=0.25G ... 2". */
  @Test
  void memoryIsPerMegabyteUnlessASuffixSaysOtherwise() {
    assertThat(TresBillingWeights.parse("mem=0.25").billing(0, 8 * GB, 0, 1)).isCloseTo(2048, within(1e-9));
    assertThat(TresBillingWeights.parse("mem=0.25G").billing(0, 8 * GB, 0, 1)).isCloseTo(2, within(1e-12));
    assertThat(TresBillingWeights.parse("mem=0.25T").billing(0, 8 * GB * GB, 0, 1)).isCloseTo(2, within(1e-12));
    // A suffix below the base unit (MB) changes nothing, as get_convert_unit_val gives 0 for it.
    assertThat(TresBillingWeights.parse("mem=0.25K").billing(0, 8 * GB, 0, 1)).isCloseTo(2048, within(1e-9));
  }

  @Test
  void namesAreCaseInsensitiveAndUnweighedTresBillNothing() {
    TresBillingWeights w = TresBillingWeights.parse("cpu=0.5, gres/GPU=4 ,NODE=10,billing=3,Energy=1");
    assertThat(w.billing(32, 256 * GB, 8, 2)).isCloseTo(16 + 32 + 20, within(1e-12));
  }

  /** What a job holding its grants is billed per second: the grants' totals, one node each. */
  @Test
  void anAllocationIsBilledByItsTotals() {
    List<GpuGrant> grants = List.of(new GpuGrant("n1", List.of(0, 1), 4, 8 * GB),
        new GpuGrant("n2", List.of(0, 1), 4, 8 * GB));
    assertThat(TresBillingWeights.parse("CPU=1,Mem=1G,GRES/gpu=10,Node=100").billing(grants))
        .isCloseTo(8 + 16 + 40 + 200, within(1e-12));
    assertThat(TresBillingWeights.GPUS.billing(grants)).isEqualTo(4);
  }

  @Test
  void badSettingsAreRefusedSayingWhichEntry() {
    assertThatThrownBy(() -> TresBillingWeights.parse("")).hasMessageContaining("TRES=weight");
    assertThatThrownBy(() -> TresBillingWeights.parse("CPU")).hasMessage("'CPU' is not TRES=weight");
    assertThatThrownBy(() -> TresBillingWeights.parse("CPU=1,Mem=lots"))
        .hasMessageStartingWith("'Mem=lots': the weight must be a number");
    assertThatThrownBy(() -> TresBillingWeights.parse("CPU=-1")).hasMessageStartingWith("'CPU=-1': the weight");
    assertThatThrownBy(() -> TresBillingWeights.parse("CPU=2x")).hasMessageStartingWith("'CPU=2x': the weight");
    assertThatThrownBy(() -> TresBillingWeights.parse("license/matlab=1"))
        .hasMessage("'license/matlab=1': license/matlab is not a TRES Squall tracks (CPU, Mem, Node, GRES/gpu)");
    assertThatThrownBy(() -> TresBillingWeights.parse("GRES/gpu:h100=2"))
        .hasMessageEndingWith("weigh all GPUs with GRES/gpu)");
  }
}
