package io.squall.api.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A bench's command line: names with values, and a usage line naming what is not one. */
class BenchMainTest {
  @Test
  void aBenchsOptionsAreNamesWithValues() {
    assertThat(BenchMain.options(List.of("--nodes", "4", "--seed", "7"), "bench x [--nodes N]"))
        .isEqualTo(Map.of("nodes", "4", "seed", "7"));
    for (List<String> wrong : List.of(List.of("nodes", "4"), List.of("--nodes"))) {
      assertThatThrownBy(() -> BenchMain.options(wrong, "bench x [--nodes N]"))
          .hasMessage("usage: bench x [--nodes N]; not '" + wrong.get(0) + "'");
    }
  }
}
