package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.bench.ChaosBench;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench chaos} in a size that fits CI: a controller in its own JVM killed with -9 twice and
 * an agent killed with -9 twice while 80 short real jobs run, 30 % of elastic launches failing.
 * Nothing acknowledged is lost, no job runs twice at once, nothing is left running, and the
 * restarted controllers keep the static nodes' agents they adopt.
 */
class ChaosBenchTest {
  @TempDir
  Path dir;

  @Test
  void killsLoseNothingAndRunNothingTwice() throws Exception {
    ChaosBench.Result r = ChaosBench.run(new ChaosBench.Options(80, 2, 2, 0.3, 7, Duration.ofMinutes(8)), dir);
    System.out.println("bench chaos (CI size): " + r.json());
    assertThat(r.jobs()).isEqualTo(80);
    assertThat(r.kills()).isEqualTo(4);
    assertThat(r.acknowledgedLost()).isZero();
    assertThat(r.doubleStarts()).isZero();
    assertThat(r.orphanInstances()).isZero();
    assertThat(r.leakedProcesses()).isZero();
    // Jobs still open at the deadline are printed (state, reason, nodes) by the bench and counted
    // in its line; they are not one of the four counts the issue holds at zero. One CI run saw 2 of
    // 80 still open after 8 minutes (cause not found yet): see the README.
    // The static nodes' agents a restarted controller adopts are not the elastic fleet's orphans.
    try (var logs = java.nio.file.Files.list(dir)) {
      for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("controller-")).toList()) {
        assertThat(log).content().doesNotContain("terminating orphan instance node-");
      }
    }
  }
}
