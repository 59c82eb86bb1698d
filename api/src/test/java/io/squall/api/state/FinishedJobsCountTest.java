package io.squall.api.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.UsageLedger;
import io.squall.core.sbatch.SbatchParser;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The committed state counts its finished jobs, so that the once-a-second purge walks the queue
 * only when there may be something to purge (a queue of pending jobs is walked on the writer
 * thread, between everyone's submissions, otherwise). {@code MinJobAgeTest} shows the purge still
 * purges through the service.
 */
class FinishedJobsCountTest {
  private static final Instant T0 = Instant.parse("2026-11-27T00:00:00Z");

  private static StoredJob pending(long id) {
    var request = new SbatchParser(ZoneOffset.UTC).parse("#!/bin/sh\ntrue\n", "script", List.of(), T0).request();
    Job job = Job.pending(id, request, "alice", "research", "normal", T0);
    Submission s = new Submission(id, "script", "#!/bin/sh\ntrue\n", List.of(), List.of(), Map.of(), "/tmp", T0);
    return new StoredJob(job, s, "None", null, null, null, null, List.of(), null);
  }

  @Test
  void countsFinishedJobsAsTheyArePublishedReplacedAndRemoved() {
    ClusterState state = new ClusterState(UsageLedger.empty(T0, Duration.ofDays(7)));
    StoredJob one = pending(1);
    StoredJob two = pending(2);
    state.publishJob(one);
    state.publishJob(two);
    assertThat(state.finishedJobs()).isZero();
    assertThat(JobPurge.due(state, T0.plus(Duration.ofDays(1)))).isEmpty();

    StoredJob oneDone = one.withJob(one.job().finished(JobState.COMPLETED, 0, T0));
    state.publishJob(oneDone);
    state.publishJob(oneDone); // published again (a note, a new version): still one
    assertThat(state.finishedJobs()).isEqualTo(1);
    assertThat(JobPurge.due(state, T0.plus(Duration.ofDays(1)))).containsExactly(new JobKey(1, null));

    state.removeJob(two.key());
    state.removeJob(new JobKey(3, null)); // not there: nothing changes
    assertThat(state.finishedJobs()).isEqualTo(1);
    state.removeJob(one.key());
    assertThat(state.finishedJobs()).isZero();
  }
}
