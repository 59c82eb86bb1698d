package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliBenchTest {
  @Test
  void printsTheMedianAndTheNearestRank90thPercentile() {
    List<Double> ms = List.of(120.0, 100.0, 300.0, 110.0, 105.0, 101.0, 130.0, 115.0, 108.0, 140.0);

    assertThat(CliBench.figures("squeue", ms, true))
        .isEqualTo("{\"verb\":\"squeue\",\"calls\":10,\"median_ms\":113,\"p90_ms\":140,\"archive\":true}");
    assertThat(CliBench.figures("sinfo", List.of(90.4, 80.0, 250.0), false))
        .isEqualTo("{\"verb\":\"sinfo\",\"calls\":3,\"median_ms\":90,\"p90_ms\":250,\"archive\":false}");
  }

  @Test
  void saysWhereTheVerbsMustBeWhenItCannotFindThem(@TempDir java.nio.file.Path dir) {
    Cli.Result r = new Cli(FakeSquall.deadUrl()).run("bench", "cli", "--calls", "2", "--bin", dir.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("squall bench cli: no launcher directory (" + dir
        + " has no squall): give --bin DIR, the directory of bin/squall and the verbs\n");
  }
}
