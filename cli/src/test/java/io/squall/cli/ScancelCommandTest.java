package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ScancelCommandTest {
  private static final String CANCELLED = "{\"jobs\":[{\"job_id\":\"42\",\"state\":\"CANCELLED\"}]}";
  private final FakeSquall fake = FakeSquall.start()
      .on("DELETE", "/v1/jobs/42", 200, CANCELLED)
      .on("DELETE", "/v1/jobs/43_3", 200, CANCELLED)
      .on("DELETE", "/v1/jobs/99", 404, "{\"error\":\"no such job 99\"}");
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void cancelsEachJobQuietly() {
    Cli.Result r = cli.run("scancel", "42", "43_3");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEmpty();
    assertThat(fake.requests()).extracting(FakeSquall.Request::method, FakeSquall.Request::path)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("DELETE", "/v1/jobs/42"),
            org.assertj.core.groups.Tuple.tuple("DELETE", "/v1/jobs/43_3"));
    assertThat(fake.last().query()).isEmpty();
    assertThat(fake.last().header("Authorization")).isEqualTo("Bearer " + Cli.TOKEN);
  }

  @Test
  void signalsByNameOrNumber() {
    cli.run("scancel", "-s", "SIGUSR1", "42");
    assertThat(fake.last().query()).containsExactly(Map.entry("signal", "USR1"));
    cli.run("scancel", "--signal=9", "42");
    assertThat(fake.last().query()).containsExactly(Map.entry("signal", "KILL"));
    cli.run("scancel", "-s", "winch", "42");
    assertThat(fake.last().query()).containsExactly(Map.entry("signal", "WINCH"));
    cli.run("scancel", "-s", "40", "42");
    assertThat(fake.last().query()).containsExactly(Map.entry("signal", "40"));
  }

  @Test
  void anUnknownSignalIsRefusedBeforeAnyRequest() {
    Cli.Result r = cli.run("scancel", "-s", "SIGFOO", "42");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo(
        "scancel: error: unknown signal 'SIGFOO': use a name like USR1 or a number from 1 to 64\n");
    assertThat(cli.run("scancel", "-s", "65", "42").exit()).isEqualTo(1);
    assertThat(fake.requests()).isEmpty();
  }

  @Test
  void anUnknownJobIsReportedLikeSlurmAndTheRestStillCancelled() {
    Cli.Result r = cli.run("scancel", "99", "42");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scancel: error: Kill job error on job id 99: Invalid job id specified\n");
    assertThat(fake.requests()).hasSize(2);
  }

  @Test
  void otherRefusalsCarryTheServicesWords() {
    fake.on("DELETE", "/v1/jobs/42", 403, "{\"error\":\"job 42 belongs to bob\"}");
    Cli.Result r = cli.run("scancel", "42");
    assertThat(r.err()).isEqualTo("scancel: error: Kill job error on job id 42: job 42 belongs to bob\n");
    fake.on("DELETE", "/v1/jobs/42", 409, "{\"error\":\"Job/step already completing or completed\"}");
    assertThat(cli.run("scancel", "-Q", "42").exit()).isZero();
  }

  @Test
  void anAuthenticationFailureStopsAtTheFirstJob() {
    fake.on("DELETE", "/v1/jobs/42", 401, "{\"error\":\"unknown token\"}");
    Cli.Result r = cli.run("scancel", "42", "99");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scancel: error: unknown token\n");
    assertThat(fake.requests()).hasSize(1);
  }

  @Test
  void filtersWithoutIdsListThenCancelWhatMatches() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"42","state":"PENDING"},{"job_id":"44","array_job_id":44,"array_pending":"[1-2%1]",
         "state":"PENDING"}]}""");
    fake.on("DELETE", "/v1/jobs/44_1", 200, CANCELLED).on("DELETE", "/v1/jobs/44_2", 200, CANCELLED);
    Cli.Result r = cli.run("scancel", "-u", "alice", "--state=PD", "-p", "gpu", "-n", "train");
    assertThat(r.exit()).isZero();
    assertThat(fake.requests().get(0).query()).containsExactly(Map.entry("state", "PENDING"),
        Map.entry("user", "alice"), Map.entry("partition", "gpu"), Map.entry("name", "train"));
    assertThat(fake.requests()).extracting(FakeSquall.Request::path)
        .containsExactly("/v1/jobs", "/v1/jobs/42", "/v1/jobs/44_1", "/v1/jobs/44_2");
  }

  @Test
  void idsWithFiltersCancelOnlyTheListedJobsThatMatch() {
    fake.on("GET", "/v1/jobs", 200, "{\"jobs\":[{\"job_id\":\"42\"},{\"job_id\":\"50\"}]}");
    cli.run("scancel", "--me", "42", "43");
    assertThat(fake.requests().get(0).query()).containsEntry("user", "alice");
    assertThat(fake.requests()).extracting(FakeSquall.Request::path).containsExactly("/v1/jobs", "/v1/jobs/42");
  }

  @Test
  void aTaskIdWithFiltersMatchesThePendingTasksOfItsArray() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"44_1","array_job_id":44,"array_task_id":1,"state":"RUNNING"},
         {"job_id":"44","array_job_id":44,"array_pending":"[2-4%1]","state":"PENDING"}]}""");
    fake.on("DELETE", "/v1/jobs/44_3", 200, CANCELLED);
    Cli.Result r = cli.run("scancel", "--me", "44_3", "44_9");
    assertThat(r.exit()).isZero();
    assertThat(fake.requests()).extracting(FakeSquall.Request::path).containsExactly("/v1/jobs", "/v1/jobs/44_3");
  }

  @Test
  void aTasksOwnJobIdWithFiltersMatchesThatTask() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"44_1","job_id_raw":47,"array_job_id":44,"array_task_id":1,"state":"RUNNING"},
         {"job_id":"44","job_id_raw":44,"array_job_id":44,"array_pending":"[2-3]","state":"PENDING"}]}""");
    fake.on("DELETE", "/v1/jobs/44_1", 200, CANCELLED);
    Cli.Result r = cli.run("scancel", "--me", "47");
    assertThat(r.exit()).isZero();
    assertThat(fake.requests()).extracting(FakeSquall.Request::path).containsExactly("/v1/jobs", "/v1/jobs/44_1");
  }

  @Test
  void anArrayIdWithFiltersCancelsItsMatchingTasksOneByOne() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"44_1","array_job_id":44,"array_task_id":1,"state":"RUNNING"},
         {"job_id":"44","array_job_id":44,"array_pending":"[2-3]","state":"PENDING"}]}""");
    fake.on("DELETE", "/v1/jobs/44_1", 200, CANCELLED).on("DELETE", "/v1/jobs/44_2", 200, CANCELLED)
        .on("DELETE", "/v1/jobs/44_3", 200, CANCELLED);
    cli.run("scancel", "-u", "alice", "44");
    assertThat(fake.requests()).extracting(FakeSquall.Request::path)
        .containsExactly("/v1/jobs", "/v1/jobs/44_1", "/v1/jobs/44_2", "/v1/jobs/44_3");
  }

  @Test
  void taskRangesAreExpanded() {
    fake.on("DELETE", "/v1/jobs/43_1", 200, CANCELLED).on("DELETE", "/v1/jobs/43_2", 200, CANCELLED);
    cli.run("scancel", "43_[1-2]", "43_[3%1]", "43_[05]", "43_[1-5:4],42");
    assertThat(fake.requests()).extracting(FakeSquall.Request::path)
        .containsExactly("/v1/jobs/43_1", "/v1/jobs/43_2", "/v1/jobs/43_3", "/v1/jobs/43_5", "/v1/jobs/43_1",
            "/v1/jobs/43_5", "/v1/jobs/42");
  }

  @Test
  void nothingToCancelOrABadIdIsAnErrorBeforeAnyRequest() {
    Cli.Result r = cli.run("scancel");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scancel: error: No job identification provided\n");
    r = cli.run("scancel", "4x2");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scancel: error: Invalid job id 4x2\n");
    assertThat(cli.run("scancel", "42_3_[1-2]").err()).isEqualTo("scancel: error: Invalid job id 42_3_[1-2]\n");
    assertThat(cli.run("scancel", "0").err()).isEqualTo("scancel: error: Invalid job id 0\n");
    r = cli.run("scancel", "43_[1-4000001]");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scancel: error: Invalid job id 43_[1-4000001]: task id 4000001 is above 4000000,"
        + " the highest any Slurm cluster allows (MaxArraySize is at most 4000001)\n");
    assertThat(fake.requests()).isEmpty();
  }

  @Test
  void nodesQosAndReservationPickTheJobsToCancel() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"42","state":"RUNNING","nodes":"node-[1-2]","qos":"high","reservation":"maint"},
                 {"job_id":"50","state":"RUNNING","nodes":"node-3","qos":"normal"}]}""");
    fake.on("DELETE", "/v1/jobs/50", 200, CANCELLED);
    assertThat(cli.run("scancel", "-w", "node-2").exit()).isZero();
    assertThat(cli.run("scancel", "-q", "NORMAL").exit()).isZero();
    assertThat(cli.run("scancel", "-R", "maint").exit()).isZero();
    assertThat(fake.requests()).extracting(FakeSquall.Request::method, FakeSquall.Request::path).containsExactly(
        org.assertj.core.groups.Tuple.tuple("GET", "/v1/jobs"), org.assertj.core.groups.Tuple.tuple("DELETE", "/v1/jobs/42"),
        org.assertj.core.groups.Tuple.tuple("GET", "/v1/jobs"), org.assertj.core.groups.Tuple.tuple("DELETE", "/v1/jobs/50"),
        org.assertj.core.groups.Tuple.tuple("GET", "/v1/jobs"), org.assertj.core.groups.Tuple.tuple("DELETE", "/v1/jobs/42"));
  }
}
