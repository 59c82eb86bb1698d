package io.squall.simulate.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class TraceFormatTest {
  @Test
  void eachFormatIsFoundByTheNameUsersTypeAndReadsItsTraces() {
    assertThat(TraceFormat.byName("sacct").reader()).isInstanceOf(SacctReader.class);
    assertThat(Samples.read(TraceFormat.byName("sacct").reader(), "squall-sacct.txt").jobs()).hasSize(9);
    assertThat(Samples.read(TraceFormat.byName("swf").reader(), "UniLu-Gaia-2014-1-first-200.swf").jobs())
        .hasSize(200);
    assertThat(Samples.read(TraceFormat.byName("philly").reader(), "philly-first-200.json").jobs()).hasSize(200);
    assertThat(Samples.read(TraceFormat.byName("jsonl").reader(), "squall-jobs.jsonl").jobs()).hasSize(10);
    assertThat(Samples.read(TraceFormat.byName("alibaba").reader(), "t.csv",
        "4f057009a5d481acec67b088,tensorflow,1.0,Terminated,1739162.0,1739200.0,600.0,29.296875,50.0,MISC\n", false)
        .jobs()).hasSize(1);
    assertThat(TraceFormat.byName(" JSONL ")).isEqualTo(TraceFormat.JSONL);
    for (TraceFormat format : TraceFormat.values()) {
      assertThat(TraceFormat.byName(format.formatName())).isEqualTo(format);
    }
  }

  @Test
  void anUnknownFormatListsTheKnownOnes() {
    assertThatThrownBy(() -> TraceFormat.byName("csv")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown trace format \"csv\" (formats: sacct, swf, philly, alibaba, jsonl)");
  }

  @Test
  void readersAreToldWhatTheirTracesDoNotSay() {
    TraceOptions options = TraceOptions.DEFAULTS.withZone(ZoneId.of("Asia/Shanghai")).withNodeGpus(4)
        .withProcsPerGpu(12);

    // sacct's local time 2026-11-26T09:05:29 in Shanghai (UTC+8)
    assertThat(Samples.read(TraceFormat.SACCT.reader(options), "squall-sacct.txt").jobs().get(0).submit())
        .isEqualTo(Instant.parse("2026-11-26T01:05:29Z"));
    // Philly's 8-GPU job on nodes of 4
    assertThat(Samples.read(TraceFormat.PHILLY.reader(options), "philly-first-200.json").jobs())
        .filteredOn(j -> j.id().equals("application_1506638472019_14199"))
        .extracting(TraceJob::nodes).containsExactly(2);
    // SWF's 160-processor job: 14 GPUs on nodes of 4
    assertThat(Samples.read(TraceFormat.SWF.reader(options), "UniLu-Gaia-2014-1-first-200.swf").jobs().get(0))
        .extracting(TraceJob::nodes, TraceJob::gpusPerNode).containsExactly(4, 4);
    assertThatThrownBy(() -> TraceOptions.DEFAULTS.withNodeGpus(0))
        .hasMessage("GPUs per node must be at least 1, got 0");
  }
}
