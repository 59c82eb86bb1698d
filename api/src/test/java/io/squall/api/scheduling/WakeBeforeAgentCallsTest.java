package io.squall.api.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.Controllers;
import io.squall.api.FakeAgent;
import io.squall.api.Http;
import io.squall.api.ManualTime;
import io.squall.api.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change that may let a job start wakes the scheduler as it commits, not once the agent calls
 * queued before it are done: those go out one at a time, so a launch to a slow agent (up to the
 * 10 s HTTP timeout) held up every wake behind it, and a freed GPU stayed idle meanwhile.
 */
class WakeBeforeAgentCallsTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final String WHOLE_NODE = "#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n";

  @TempDir
  Path dir;
  @AutoClose
  private final FakeAgent agent = new FakeAgent();

  @Test
  void aSubmissionAndAJobsEndWakeTheSchedulerWhileALaunchWaitsForItsAgent() {
    try (Controllers.Running c = Controllers.start(Controllers.manualSettings(dir.resolve("data"), null,
        "node-[1-2]", "1h"))) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      AtomicInteger wakes = new AtomicInteger();
      c.bean(Wakeup.class).attach(wakes::incrementAndGet); // manual ticks: the ticker does not listen
      agent.register(h, "node-1");
      agent.register(h, "node-2");
      String first = Long.toString(h.submit(WHOLE_NODE));
      agent.holdLaunches();
      time.tick(); // starts the job; its launch reaches the agent, which does not answer yet
      Poll.until("the launch on its way", LONG, () -> agent.called("POST /jobs"));
      int before = wakes.get();

      h.submit(WHOLE_NODE);
      assertThat(wakes.get()).as("woken by the submission, once it was answered").isEqualTo(before + 1);
      agent.exit(h, h.job(first).get("nodes").asText(), first, 0);
      assertThat(wakes.get()).as("woken by the job's end, once it was answered").isEqualTo(before + 2);
    }
  }
}
