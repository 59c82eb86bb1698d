package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.bench.HistoryBench;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history bench, small: finished jobs in the database stay out of memory unless MinJobAge is 0. */
class HistoryBenchTest {
  @TempDir
  Path dir;

  @Test
  void finishedJobsOfTheDatabaseStayOutOfMemory() throws Exception {
    String line = HistoryBench.run(List.of("--finished", "300", "--nodes", "4", "--pending", "20", "--cycles", "2"),
        dir.resolve("a"));
    assertThat(line).startsWith("history bench: 300 finished jobs in the database (min-job-age 300 s), 4 nodes,"
        + " 20 pending").contains(", 20 jobs in memory;").containsPattern("cycle_ms median [0-9.]+ max [0-9.]+");
  }

  @Test
  void withMinJobAgeZeroEveryFinishedJobIsLoaded() throws Exception {
    String line = HistoryBench.run(List.of("--finished", "300", "--nodes", "4", "--pending", "20", "--cycles", "1",
        "--min-job-age", "0"), dir.resolve("b"));
    assertThat(line).contains(", 320 jobs in memory;");
  }
}
