package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import io.squall.api.config.ClusterLayout;
import io.squall.core.model.Account;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import io.squall.core.model.Tres;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Account and QOS limits from configuration: bound from their keys, and MaxSubmitJobs refusing a
 * submission past it with Slurm's error, until a job of the user's ends.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubmitLimitsTest implements TestPropertyProvider {
  private static final String SCRIPT = "#!/bin/bash\nhostname\n";
  private static final String POLICY =
      "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)";

  @Inject
  EmbeddedServer server;

  @Inject
  ClusterLayout layout;

  @Override
  public Map<String, String> getProperties() {
    try {
      return Map.ofEntries(
          Map.entry("squall.data-dir", Files.createTempDirectory("squall-limits-test").toString()),
          Map.entry("squall.provider", "none"), Map.entry("micronaut.server.port", "-1"),
          Map.entry("squall.accounts.research.max-submit-jobs", "3"),
          Map.entry("squall.accounts.research.max-jobs", "2"),
          Map.entry("squall.accounts.research.grp-tres", "gres/gpu=16,cpu=64"),
          Map.entry("squall.accounts.research.grp-tres-mins", "gres/gpu=6000"),
          Map.entry("squall.qos.batch.priority", "10"),
          Map.entry("squall.qos.batch.preempt", "normal"),
          Map.entry("squall.qos.batch.preempt-mode", "cancel"),
          Map.entry("squall.qos.batch.grp-tres", "gres/gpu=24,node=3"),
          Map.entry("squall.qos.batch.grp-tres-mins", "gres/gpu=1000"),
          Map.entry("squall.qos.batch.max-tres-per-user", "gres/gpu=8,mem=512G"),
          Map.entry("squall.qos.batch.max-jobs-per-user", "4"),
          Map.entry("squall.qos.batch.max-submit-jobs-per-user", "1"),
          Map.entry("squall.qos.batch.usage-factor", "0.5"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void limitsAreBoundFromTheirKeys() {
    Account research = layout.accounts().stream().filter(a -> a.name().equals("research")).findFirst().orElseThrow();
    assertThat(research.limits()).isEqualTo(new Account.Limits(new Tres(16, 64, null, null), 6000L, 2, 3));
    Qos batch = layout.qos().get("batch");
    assertThat(batch.priority()).isEqualTo(10);
    assertThat(batch.preempt()).containsExactly("normal");
    assertThat(batch.preemptMode()).isEqualTo(PreemptMode.CANCEL);
    assertThat(batch.grpTres()).isEqualTo(new Tres(24, null, null, 3));
    assertThat(batch.grpGpuMinutes()).isEqualTo(1000L);
    assertThat(batch.maxTresPerUser()).isEqualTo(new Tres(8, null, 512L * 1024, null));
    assertThat(batch.maxJobsPerUser()).isEqualTo(4);
    assertThat(batch.maxSubmitJobsPerUser()).isEqualTo(1);
    assertThat(batch.usageFactor()).isEqualTo(0.5);
  }

  @Test
  void maxSubmitJobsRefusesASubmissionPastItUntilAJobEnds() {
    Http h = new Http(server.getURL().toString());
    // Bob shares the account but not the association: his jobs do not count against alice's.
    assertThat(h.post("bob-token", "/v1/jobs", Map.of("script", SCRIPT, "argv", List.of())).status()).isEqualTo(201);
    long first = h.submit(Map.of("script", SCRIPT, "argv", List.of()));
    Http.Answer array = h.post("alice-token", "/v1/jobs", Map.of("script", SCRIPT, "argv", List.of("--array=1-3")));
    assertThat(array.status()).isEqualTo(400);
    assertThat(array.error()).isEqualTo(POLICY + ": account research allows each user 3 pending or running jobs"
        + " (MaxSubmitJobs); alice has 1 and submits 3");
    h.submit(Map.of("script", SCRIPT, "argv", List.of("--array=1-2")));
    Http.Answer over = h.post("alice-token", "/v1/jobs", Map.of("script", SCRIPT, "argv", List.of()));
    assertThat(over.status()).isEqualTo(400);
    assertThat(over.error()).isEqualTo(POLICY + ": account research allows each user 3 pending or running jobs"
        + " (MaxSubmitJobs); alice has 3");
    // A cancelled job ends at once (its answer comes once that is durable) and makes room.
    assertThat(h.delete("alice-token", "/v1/jobs/" + first).status()).isEqualTo(200);
    Http.Answer room = h.post("alice-token", "/v1/jobs", Map.of("script", SCRIPT, "argv", List.of()));
    assertThat(room.status()).as(room.body()).isEqualTo(201);
  }
}
