package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.agent.Protocol.JobSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The jobs a node holds, around their ends: the launch that was under way when the agent began
 * to stop (found in a chaos run: its script started after the agent had killed its jobs, and
 * outlived it), a launch that comes after its run's delete, and a deleted run still dying.
 */
class JobTableTest {
  private Process started;

  @AfterEach
  void stop() {
    if (started != null) {
      started.destroyForcibly();
    }
  }

  private static JobSpec batch(String key) {
    return batch(key, 0);
  }

  private static JobSpec batch(String key, int run) {
    return new JobSpec(key, "cred", true, "sleep 600\n", List.of(), null, Map.of(), List.of(), null, null, null,
        null, Map.of(), null, run);
  }

  @Test
  void aScriptStillStartingWhenTheAgentStopsIsKilledAsItComesIn() throws Exception {
    JobTable table = new JobTable();
    NodeJob starting = table.addIfAbsent(batch("7")).orElseThrow();

    table.close().forEach(NodeJob::delete); // what the stopping agent does (JobControl.killEverything)
    started = new ProcessBuilder("sleep", "600").start();

    assertThat(starting.attachBatch(new Launched(started, false))).isFalse();
    assertThat(started.waitFor(60, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void takesNoJobOnceClosed() {
    JobTable table = new JobTable();
    table.addIfAbsent(batch("7"));

    assertThat(table.close()).hasSize(1);
    assertThatThrownBy(() -> table.addIfAbsent(batch("8"))).isInstanceOf(JobTable.Closed.class)
        .hasMessageContaining("stopping");
    assertThat(table.held()).containsExactly("7");
  }

  @Test
  void aLaunchThatComesAfterItsRunsDeleteIsRefusedButTheNextRunIsTaken() {
    JobTable table = new JobTable();

    assertThat(table.remove("7", 2)).isEmpty(); // the delete overtook the launch
    assertThatThrownBy(() -> table.addIfAbsent(batch("7", 2))).isInstanceOf(JobTable.Ended.class)
        .hasMessageContaining("run 2");
    assertThatThrownBy(() -> table.addIfAbsent(batch("7", 1))).isInstanceOf(JobTable.Ended.class);
    assertThat(table.addIfAbsent(batch("7", 3))).isPresent();
  }

  @Test
  void aDeleteOfAnEarlierRunLeavesALaterRunAlone() {
    JobTable table = new JobTable();
    table.addIfAbsent(batch("7", 3));

    assertThat(table.remove("7", 2)).isEmpty();
    assertThat(table.held()).containsExactly("7");
    assertThat(table.remove("7", null)).isPresent(); // whichever is held: run 3
    assertThatThrownBy(() -> table.addIfAbsent(batch("7", 3))).isInstanceOf(JobTable.Ended.class);
  }

  @Test
  void aDeletedRunIsHeldUntilItsProcessesAreGone() throws Exception {
    JobTable table = new JobTable();
    NodeJob job = table.addIfAbsent(batch("7")).orElseThrow();
    started = new ProcessBuilder("sleep", "600").start();
    assertThat(job.attachBatch(new Launched(started, false))).isTrue();

    assertThat(table.remove("7", 0)).contains(job);
    assertThat(table.held()).containsExactly("7");
    assertThat(table.dying("7")).isTrue();

    started.destroyForcibly();
    assertThat(started.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(table.held()).isEmpty();
    assertThat(table.dying("7")).isFalse();
  }
}
