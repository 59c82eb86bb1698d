package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code GET /v1/jobs?fields=}: each job with only the summary fields asked for (what squeue prints). */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobListFieldsTest implements TestPropertyProvider {
  private static final String SCRIPT = "#!/bin/bash\n#SBATCH --job-name=train\nhostname\n";

  @Inject
  EmbeddedServer server;

  @Override
  public Map<String, String> getProperties() {
    try {
      Path dir = Files.createTempDirectory("squall-fields-test");
      return Map.of("squall.data-dir", dir.toString(), "squall.provider", "none", "micronaut.server.port", "-1");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Http http() {
    return new Http(server.getURL().toString());
  }

  @Test
  void eachJobHasOnlyTheFieldsAskedForInTheSummarysOrder() {
    Http h = http();
    long id = h.submit(SCRIPT);
    JsonNode full = job(h.get("alice-token", "/v1/jobs?job=" + id));
    JsonNode some = job(h.get("alice-token", "/v1/jobs?job=" + id + "&fields=state,job_id,%20elapsed_seconds,name"));
    assertThat(names(some)).containsExactly("job_id", "name", "state", "elapsed_seconds");
    for (String f : names(some)) {
      assertThat(some.get(f)).as(f).isEqualTo(full.get(f));
    }
    assertThat(names(full)).hasSize(32).startsWith("job_id", "job_id_raw").endsWith("stderr", "held");
    assertThat(names(job(h.get("alice-token", "/v1/jobs?job=" + id + "&fields=")))).isEqualTo(names(full));
  }

  @Test
  void theFiltersStillApply() {
    Http h = http();
    h.postScript("bob-token", "/v1/jobs?job-name=bobsjob", SCRIPT);
    JsonNode jobs = h.get("admin-token", "/v1/jobs?user=bob&name=bobsjob&fields=user,name").json().get("jobs");
    assertThat(jobs).isNotEmpty();
    jobs.forEach(j -> assertThat(names(j)).containsExactly("name", "user"));
    assertThat(jobs.findValuesAsText("user")).containsOnly("bob");
    assertThat(h.get("admin-token", "/v1/jobs?state=RUNNING&fields=job_id").json().get("jobs")).isEmpty();
  }

  @Test
  void asRowsEachJobIsAnArrayOfTheSameValuesUnderTheFieldNames() {
    Http h = http();
    long id = h.submit(SCRIPT);
    JsonNode full = job(h.get("alice-token", "/v1/jobs?job=" + id));
    JsonNode answer = h.get("alice-token", "/v1/jobs?job=" + id + "&fields=state,job_id,name&rows=true").json();
    assertThat(answer.has("jobs")).isFalse();
    assertThat(answer.get("fields")).extracting(JsonNode::asText).containsExactly("job_id", "name", "state");
    assertThat(answer.get("rows")).hasSize(1);
    JsonNode row = answer.get("rows").get(0);
    // No node in this cluster: the job stays pending, so its state is the same in both answers.
    assertThat(row).containsExactly(full.get("job_id"), full.get("name"), full.get("state"));
    // Every field without fields=; rows=false is the ordinary list; anything else is a 400.
    JsonNode all = h.get("alice-token", "/v1/jobs?job=" + id + "&rows").json();
    assertThat(all.get("fields")).hasSize(32);
    assertThat(all.get("rows").get(0)).hasSize(32);
    assertThat(names(job(h.get("alice-token", "/v1/jobs?job=" + id + "&rows=false")))).isEqualTo(names(full));
    Http.Answer bad = h.get("alice-token", "/v1/jobs?rows=yes");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.error()).isEqualTo("rows='yes': true or false");
  }

  @Test
  void anUnknownFieldIsA400NamingItAndTheKnownOnes() {
    Http.Answer a = http().get("alice-token", "/v1/jobs?fields=job_id,colour");
    assertThat(a.status()).isEqualTo(400);
    assertThat(a.error()).contains("'colour'").contains("job_id,job_id_raw,").contains("work_dir,stdout,stderr,held");
  }

  private static JsonNode job(Http.Answer list) {
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.json().get("jobs")).hasSize(1);
    return list.json().get("jobs").get(0);
  }

  private static List<String> names(JsonNode job) {
    List<String> names = new ArrayList<>();
    job.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
