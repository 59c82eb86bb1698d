package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.cli.fake.FakeSquall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * squeue, sinfo and sacct --json in the shape Slurm 23.02 prints (data_parser/v0.0.39): meta,
 * errors, warnings and the records, with Slurm's field names and value shapes.
 */
class JsonOutputTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final FakeSquall fake = FakeSquall.start()
      .on("GET", "/v1/jobs", 200, SqueueCommandTest.JOBS)
      .on("GET", "/v1/accounting", 200, SacctCommandTest.ROWS)
      .on("GET", "/v1/partitions", 200, SinfoCommandTest.PARTITIONS)
      .on("GET", "/v1/nodes", 200, SinfoCommandTest.NODES);
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  private JsonNode json(String... args) throws IOException {
    Cli.Result r = cli.run(args);
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    return JSON.readTree(r.out());
  }

  private static List<String> keys(JsonNode object) {
    List<String> keys = new ArrayList<>();
    object.fieldNames().forEachRemaining(keys::add);
    return keys;
  }

  private static void assertEnvelope(JsonNode root, String records, String... command) {
    assertThat(keys(root)).containsExactly("meta", "errors", "warnings", records);
    assertThat(root.get("errors")).isEmpty();
    assertThat(root.get("warnings")).isEmpty();
    JsonNode meta = root.get("meta");
    assertThat(meta.at("/plugin/data_parser").asText()).isEqualTo("data_parser/v0.0.39");
    assertThat(meta.at("/Slurm/version/major").asInt()).isEqualTo(23);
    List<String> argv = new ArrayList<>();
    meta.get("command").forEach(n -> argv.add(n.asText()));
    assertThat(argv).containsExactly(command);
  }

  @Test
  void squeueJsonHasSlurmsJobInfoFields() throws IOException {
    JsonNode root = json("squeue", "--json", "-u", "alice");
    assertEnvelope(root, "jobs", "squeue", "--json", "-u", "alice");
    assertThat(fake.last().query()).containsEntry("user", "alice");
    JsonNode running = root.get("jobs").get(0);
    assertThat(running.get("job_id").asLong()).isEqualTo(42);
    assertThat(running.get("job_state").asText()).isEqualTo("RUNNING");
    assertThat(running.get("user_name").asText()).isEqualTo("alice");
    assertThat(running.get("account").asText()).isEqualTo("ml");
    assertThat(running.get("partition").asText()).isEqualTo("gpu");
    assertThat(running.get("nodes").asText()).isEqualTo("node-[1-2]");
    assertThat(running.get("batch_host").asText()).isEqualTo("node-1");
    assertThat(running.get("time_limit").toString()).isEqualTo("{\"set\":true,\"infinite\":false,\"number\":60}");
    assertThat(running.get("node_count").get("number").asInt()).isEqualTo(2);
    assertThat(running.get("array_job_id").toString()).isEqualTo("{\"set\":true,\"infinite\":false,\"number\":0}");
    assertThat(running.get("array_task_id").toString()).isEqualTo("{\"set\":false,\"infinite\":false,\"number\":0}");
    assertThat(running.get("start_time").asLong()).isEqualTo(1795258677L);
    assertThat(running.get("state_reason").asText()).isEqualTo("None");
    assertThat(running.get("tres_alloc_str").asText()).isEqualTo("gres/gpu=16,node=2");
    assertThat(running.has("priority")).as("Squall does not say: left out, not made up").isFalse();
    JsonNode unlimited = root.get("jobs").get(1);
    assertThat(unlimited.get("time_limit").toString()).isEqualTo("{\"set\":false,\"infinite\":true,\"number\":0}");
    assertThat(unlimited.get("state_reason").asText()).isEqualTo("Priority");
    assertThat(unlimited.get("start_time").asLong()).as("the expected start").isEqualTo(1795266000L);
    JsonNode array = root.get("jobs").get(2);
    assertThat(array.get("job_id").asLong()).isEqualTo(44);
    assertThat(array.get("array_job_id").get("number").asLong()).isEqualTo(44);
    assertThat(array.get("array_task_string").asText()).isEqualTo("4-9%2");
  }

  @Test
  void sacctJsonHasSlurmsJobRecordFields() throws IOException {
    JsonNode root = json("sacct", "--json");
    assertEnvelope(root, "jobs", "sacct", "--json");
    JsonNode done = root.get("jobs").get(0);
    assertThat(done.get("job_id").asLong()).isEqualTo(42);
    assertThat(done.get("state").get("current").asText()).isEqualTo("COMPLETED");
    assertThat(done.get("exit_code").toString()).isEqualTo("{\"status\":\"SUCCESS\",\"return_code\":0}");
    assertThat(done.at("/time/elapsed").asLong()).isEqualTo(3661);
    assertThat(done.at("/time/start").asLong()).isEqualTo(1795251600L);
    assertThat(done.at("/tres/allocated").toString()).isEqualTo(
        "[{\"type\":\"node\",\"name\":\"\",\"id\":4,\"count\":2},{\"type\":\"gres\",\"name\":\"gpu\",\"id\":1001,\"count\":16}]");
    assertThat(done.get("steps")).isEmpty();
    JsonNode task = root.get("jobs").get(1);
    assertThat(task.get("job_id").asLong()).isEqualTo(43);
    assertThat(task.at("/array/job_id").asLong()).isEqualTo(43);
    assertThat(task.at("/array/task_id/number").asLong()).isEqualTo(1);
    assertThat(task.get("exit_code").toString()).isEqualTo("{\"status\":\"ERROR\",\"return_code\":2}");
    assertThat(root.get("jobs").get(2).get("exit_code").toString()).isEqualTo(
        "{\"status\":\"SIGNALED\",\"return_code\":null,\"signal\":{\"signal_id\":9,\"name\":\"Killed\"}}");
  }

  @Test
  void sinfoJsonHasSlurmsSinfoDataFields() throws IOException {
    JsonNode root = json("sinfo", "--json", "-o", "%N");
    assertEnvelope(root, "sinfo", "sinfo", "--json", "-o", "%N");
    JsonNode idle = root.get("sinfo").get(0);
    assertThat(idle.at("/node/state").toString()).isEqualTo("[\"IDLE\"]");
    assertThat(idle.at("/nodes/nodes").toString()).isEqualTo("[\"node-1\",\"node-3\"]");
    assertThat(idle.at("/nodes/idle").asInt()).isEqualTo(2);
    assertThat(idle.at("/nodes/total").asInt()).isEqualTo(2);
    assertThat(idle.at("/cpus/total").asInt()).isEqualTo(192);
    assertThat(idle.at("/gres/total").asText()).isEqualTo("gpu:h100:8");
    assertThat(idle.at("/partition/name").asText()).isEqualTo("gpu");
    assertThat(idle.at("/partition/maximums/time/number").asInt()).isEqualTo(1440);
    assertThat(idle.at("/partition/maximums/nodes").toString())
        .isEqualTo("{\"set\":false,\"infinite\":true,\"number\":0}");
    JsonNode cloud = root.get("sinfo").get(root.get("sinfo").size() - 2);
    assertThat(cloud.at("/node/state").toString()).isEqualTo("[\"IDLE\",\"CLOUD\",\"POWERED_DOWN\"]");
    assertThat(cloud.at("/partition/name").asText()).isEqualTo("interactive");
  }
}
