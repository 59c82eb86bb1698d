package io.squall.providers.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The bundled Spot Instance Advisor snapshot, its buckets as rates, and what the parser refuses. */
class SpotAdvisorTest {
  private static final String HEADER = "snapshot_date,region,os,instance_type,savings_pct_vs_ondemand,"
      + "interruption_bucket_index,interruption_bucket_label,vcpus,ram_gb";

  private static SpotAdvisor parse(String... rows) {
    return SpotAdvisor.parse("test.csv", List.of(rows));
  }

  @Test
  void eachBucketIsItsMidpointShareOverTheHoursOfAMonth() {
    assertThat(InterruptionBucket.UNDER_5_PERCENT.perNodeHour()).isEqualTo(0.025 / 730);
    assertThat(InterruptionBucket.FROM_5_TO_10_PERCENT.perNodeHour()).isEqualTo(0.075 / 730);
    assertThat(InterruptionBucket.FROM_10_TO_15_PERCENT.perNodeHour()).isEqualTo(0.125 / 730);
    assertThat(InterruptionBucket.FROM_15_TO_20_PERCENT.perNodeHour()).isEqualTo(0.175 / 730);
    assertThat(InterruptionBucket.OVER_20_PERCENT.perNodeHour()).isCloseTo(3.42e-4, within(0.01e-4));
    assertThat(InterruptionBucket.labelled(">20%")).contains(InterruptionBucket.OVER_20_PERCENT);
    assertThat(InterruptionBucket.labelled("20%")).isEmpty();
  }

  /** The rows of the bundled file, checked against the advisor's snapshot of 2025-06-28. */
  @Test
  void theBundledSnapshotGivesH100AndH200TheirUsEast1Buckets() {
    SpotAdvisor advisor = SpotAdvisor.bundled();
    // 2025-06-28,us-east-1,Linux,p5.48xlarge,52,4,>20%,192,2048.0
    assertThat(advisor.bucket("us-east-1", "p5.48xlarge")).contains(InterruptionBucket.OVER_20_PERCENT);
    assertThat(advisor.interruptionsPerNodeHour("us-east-1", "p5.48xlarge")).isEqualTo(0.25 / 730);
    // 2025-06-28,us-east-1,Linux,p5en.48xlarge,64,0,<5%,192,2048.0
    assertThat(advisor.interruptionsPerNodeHour("us-east-1", "p5en.48xlarge")).isEqualTo(0.025 / 730);
    // 2025-06-28,us-east-1,Linux,p4d.24xlarge,67,2,10-15%,96,1152.0
    assertThat(advisor.bucket("us-east-1", "p4d.24xlarge")).contains(InterruptionBucket.FROM_10_TO_15_PERCENT);
    // The same type elsewhere: 2025-06-28,us-west-2,Linux,p5.48xlarge,46,1,5-10%,192,2048.0
    assertThat(advisor.bucket("us-west-2", "p5.48xlarge")).contains(InterruptionBucket.FROM_5_TO_10_PERCENT);
  }

  @Test
  void anUnlistedTypeOrRegionIsUnknownZeroNotAnError() {
    SpotAdvisor advisor = SpotAdvisor.bundled();
    assertThat(advisor.bucket("us-east-1", "m7i.large")).isEmpty();
    assertThat(advisor.interruptionsPerNodeHour("us-east-1", "m7i.large")).isZero();
    // p5e.48xlarge (8 H200) is in no region of this snapshot
    assertThat(advisor.interruptionsPerNodeHour("us-east-1", "p5e.48xlarge")).isZero();
    assertThat(advisor.interruptionsPerNodeHour("mars-north-1", "p5.48xlarge")).isZero();
  }

  @Test
  void onlyLinuxRowsCountWhateverTheColumnOrder() {
    SpotAdvisor advisor = parse(
        "os,interruption_bucket_label,instance_type,region,interruption_bucket_index",
        "Windows,>20%,g5.xlarge,us-east-1,4",
        "Linux,5-10%,g5.xlarge,us-east-1,1",
        "",
        "Windows,<5%,g6.xlarge,us-east-1,0");
    assertThat(advisor.bucket("us-east-1", "g5.xlarge")).contains(InterruptionBucket.FROM_5_TO_10_PERCENT);
    assertThat(advisor.bucket("us-east-1", "g6.xlarge")).isEmpty();
  }

  @Test
  void aMalformedLineIsRefusedNamingItsLine() {
    String good = "2025-06-28,us-east-1,Linux,p5.48xlarge,52,4,>20%,192,2048.0";
    assertThatThrownBy(() -> parse(HEADER, good, "2025-06-28,us-east-1,Linux,p5en.48xlarge,64,0,<5%,192"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("test.csv line 3: expected 9 fields, as in the header, found 8: "
            + "2025-06-28,us-east-1,Linux,p5en.48xlarge,64,0,<5%,192");
    assertThatThrownBy(() -> parse(HEADER, "2025-06-28,us-east-1,Linux,p5.48xlarge,52,5,30%,192,2048.0"))
        .hasMessage("test.csv line 2: interruption bucket '30%' is none of the advisor's "
            + "(<5%, 5-10%, 10-15%, 15-20%, >20%): 2025-06-28,us-east-1,Linux,p5.48xlarge,52,5,30%,192,2048.0");
    assertThatThrownBy(() -> parse(HEADER, "2025-06-28,us-east-1,Linux,p5.48xlarge,52,3,>20%,192,2048.0"))
        .hasMessageStartingWith("test.csv line 2: interruption bucket index 3 does not match its label >20% (index 4)");
    assertThatThrownBy(() -> parse(HEADER, "2025-06-28,,Linux,p5.48xlarge,52,4,>20%,192,2048.0"))
        .hasMessageStartingWith("test.csv line 2: column region is empty");
    assertThatThrownBy(() -> parse(HEADER, good, good))
        .hasMessageStartingWith("test.csv line 3: a second Linux row for p5.48xlarge in us-east-1");
  }

  @Test
  void aHeaderWithoutTheAdvisorsColumnsIsRefused() {
    assertThatThrownBy(() -> parse("region,os,instance_type,bucket", "us-east-1,Linux,p5.48xlarge,>20%"))
        .hasMessageStartingWith("test.csv line 1: the header has no column interruption_bucket_index");
    assertThatThrownBy(() -> parse()).hasMessageStartingWith("test.csv line 1: no header");
  }
}
