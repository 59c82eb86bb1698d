package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.cli.fake.FakeSquall;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** scontrol update as scontrol(1) writes it, for pending jobs and (operators) nodes. */
class ScontrolUpdateTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHANGED = "{\"jobs\":[{\"job_id\":\"42\"}]}";

  private final FakeSquall fake = FakeSquall.start()
      .on("POST", "/v1/jobs/42/update", 200, CHANGED)
      .on("POST", "/v1/jobs/43/update", 200, CHANGED)
      .on("POST", "/v1/nodes/node-1/drain", 200, "{}")
      .on("POST", "/v1/nodes/node-2/drain", 200, "{}")
      .on("POST", "/v1/nodes/node-1/resume", 200, "{}");
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  private Map<?, ?> body(FakeSquall.Request r) throws IOException {
    return JSON.readValue(r.body(), Map.class);
  }

  @Test
  void jobFieldsInAnyCaseBecomeTheUpdate() throws IOException {
    Cli.Result r = cli.run("scontrol", "update", "JobId=42", "TimeLimit=1:00:00", "partition=gpu", "QOS=high",
        "NumNodes=2-4", "Dependency=afterok:41", "Nice=10", "Priority=7");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(fake.last().path()).isEqualTo("/v1/jobs/42/update");
    assertThat(body(fake.last())).isEqualTo(Map.of("time_limit", "1:00:00", "partition", "gpu", "qos", "high",
        "num_nodes", "2-4", "dependency", "afterok:41", "nice", "10", "priority", "7"));
  }

  @Test
  void incrementsAListOfJobsAndNiceAloneAsScontrolReadsThem() throws IOException {
    assertThat(cli.run("scontrol", "update", "jobid=42,43", "TimeLimit+=30", "Nice").exit()).isZero();
    assertThat(fake.requests()).extracting(FakeSquall.Request::path)
        .containsExactly("/v1/jobs/42/update", "/v1/jobs/43/update");
    assertThat(body(fake.last())).isEqualTo(Map.of("time_limit_delta", "+30", "nice", "100"));
    cli.run("scontrol", "update", "job=42", "TimeLimit-=1:00:00", "Dependency=");
    assertThat(body(fake.last())).isEqualTo(Map.of("time_limit_delta", "-1:00:00", "dependency", ""));
  }

  @Test
  void nodesAreDrainedWithAReasonAndResumed() throws IOException {
    assertThat(cli.run("scontrol", "update", "NodeName=node-[1-2]", "State=DRAIN", "Reason=bad disk").exit())
        .isZero();
    assertThat(fake.requests()).extracting(FakeSquall.Request::path)
        .containsExactly("/v1/nodes/node-1/drain", "/v1/nodes/node-2/drain");
    assertThat(body(fake.last())).isEqualTo(Map.of("reason", "bad disk"));
    assertThat(cli.run("scontrol", "update", "nodename=node-1", "state=resume").exit()).isZero();
    assertThat(fake.last().path()).isEqualTo("/v1/nodes/node-1/resume");
  }

  @Test
  void whatScontrolRefusesNeverReachesTheService() {
    Cli.Result r = cli.run("scontrol", "update", "JobId=42", "Comment=hi");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scontrol: error: Update of this parameter is not supported: Comment=hi\n");
    r = cli.run("scontrol", "update", "NodeName=node-1", "State=DRAIN");
    assertThat(r.err()).isEqualTo(
        "scontrol: error: You must specify a reason when DOWNING or DRAINING a node. Request denied\n");
    r = cli.run("scontrol", "update", "NodeName=node-1", "State=DOWN", "Reason=x");
    assertThat(r.err()).startsWith("scontrol: error: Invalid node state specified: DOWN");
    assertThat(cli.run("scontrol", "update", "JobId=42").err()).isEqualTo("scontrol: error: No changes specified\n");
    assertThat(cli.run("scontrol", "update", "JobId=4x2", "Nice=1").err())
        .isEqualTo("scontrol: error: Invalid job id 4x2\n");
    assertThat(fake.requests()).isEmpty();
  }

  @Test
  void theServicesRefusalIsPrintedAndTheExitIsOne() {
    fake.on("POST", "/v1/jobs/42/update", 409,
        "{\"error\":\"job 42: Job is no longer pending execution (only a pending job can be updated)\"}");
    fake.on("POST", "/v1/nodes/node-1/drain", 403,
        "{\"error\":\"Access/permission denied: only operators and administrators can drain or resume nodes\"}");
    Cli.Result r = cli.run("scontrol", "update", "JobId=42", "TimeLimit=10");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo(
        "scontrol: error: job 42: Job is no longer pending execution (only a pending job can be updated)\n");
    r = cli.run("scontrol", "update", "NodeName=node-1", "State=DRAIN", "Reason=x");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo(
        "scontrol: error: Access/permission denied: only operators and administrators can drain or resume nodes\n");
  }
}
