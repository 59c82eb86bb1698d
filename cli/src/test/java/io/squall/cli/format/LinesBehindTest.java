package io.squall.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LinesBehindTest {
  @Test
  void linesComeInTheRowsOrderAcrossBatches() {
    try (LinesBehind<Integer> r = new LinesBehind<>(i -> "row " + i)) {
      IntStream.range(0, 2000).forEach(r::add);
      assertThat(r.lines()).hasSize(2000).startsWith("row 0", "row 1").endsWith("row 1999");
    }
  }

  @Test
  void noRowsNoLines() {
    try (LinesBehind<Integer> r = new LinesBehind<>(i -> "row " + i)) {
      assertThat(r.lines()).isEmpty();
    }
  }

  @Test
  void aRenderingFailureReachesTheCallerAndNeverBlocksTheReader() {
    try (LinesBehind<Integer> r = new LinesBehind<>(i -> {
      if (i == 3) {
        throw new IllegalArgumentException("bad row " + i);
      }
      return "row " + i;
    })) {
      IntStream.range(0, 100_000).forEach(r::add); // far more than the queue holds
      assertThatThrownBy(r::lines).isInstanceOf(IllegalArgumentException.class).hasMessage("bad row 3");
    }
  }

  @Test
  void closedWithoutTakingTheLinesItsThreadStops() throws Exception {
    LinesBehind<Integer> r = new LinesBehind<>(i -> "row " + i);
    r.add(1);
    r.close(); // as when reading the answer failed
    r.thread.join(60_000);
    assertThat(r.thread.isAlive()).isFalse();
  }
}
