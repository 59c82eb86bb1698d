package io.squall.cli.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.squall.cli.fake.FakeSquall;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SquallClientTest {
  private final FakeSquall fake = FakeSquall.start();
  private final SquallClient client = new SquallClient(new ServiceAddress(fake.url(), "tok", Path.of("/x")));

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void listsJobsWithFiltersAsCommaListsAndTheBearerToken() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"42_3","array_job_id":42,"array_task_id":3,"array_pending":null,"name":"train",
          "state":"RUNNING","num_nodes":2,"num_gpus":16,"time_limit_minutes":60,"submit_time":"2026-11-21T10:00:00Z",
          "start_time":"2026-11-21T10:00:00Z","end_time":null,"elapsed_seconds":300,"exit_code":null,
          "exit_signal":15,"held":false,"some_future_field":{"x":1}}]}""");
    List<JobInfo> jobs = client.jobs(new JobQuery(List.of("PENDING", "RUNNING"), List.of("bob", "carol"), List.of(),
        List.of("gpu"), List.of(), List.of("42")));
    FakeSquall.Request r = fake.last();
    assertThat(r.method()).isEqualTo("GET");
    assertThat(r.path()).isEqualTo("/v1/jobs");
    assertThat(r.query()).containsExactly(Map.entry("state", "PENDING,RUNNING"), Map.entry("user", "bob,carol"),
        Map.entry("partition", "gpu"), Map.entry("job", "42"));
    assertThat(r.header("Authorization")).isEqualTo("Bearer tok");
    JobInfo j = jobs.get(0);
    assertThat(j.jobId()).isEqualTo("42_3");
    assertThat(j.arrayJobId()).isEqualTo(42L);
    assertThat(j.timeLimitMinutes()).isEqualTo(60L);
    assertThat(j.submitTime()).isEqualTo(Instant.parse("2026-11-21T10:00:00Z"));
    assertThat(j.startTime()).isEqualTo(Instant.parse("2026-11-21T10:00:00Z"));
    assertThat(j.endTime()).isNull();
    assertThat(j.exitSignal()).isEqualTo(15);
  }

  @Test
  void anAnswerWithoutTheFieldAskedForIsEmptyNotAnError() {
    fake.on("GET", "/v1/jobs/7/environment", 200, "{}");
    assertThat(client.allocationEnvironment("7")).isEmpty();
    fake.on("GET", "/v1/jobs/7/environment", 200, "  {\"environment\":{\"SLURM_JOB_ID\":7}}");
    assertThat(client.allocationEnvironment("7")).containsExactly(Map.entry("SLURM_JOB_ID", "7"));
    fake.on("GET", "/v1/nodes", 200, "{\"partitions\":[]}");
    assertThat(client.nodes()).isEmpty();
  }

  @Test
  void severalJobsAreAskedOneByOneAndSeveralPartitionsFilteredHere() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"1","partition":"gpu"},{"job_id":"2","partition":"cpu,gpu"},{"job_id":"3","partition":"x"}]}""");
    List<JobInfo> jobs = client.jobs(new JobQuery(List.of(), List.of(), List.of(), List.of("gpu", "cpu"), List.of(),
        List.of("1", "2")));
    assertThat(jobs).extracting(JobInfo::jobId).containsExactly("1", "2");
    assertThat(fake.requests()).extracting(FakeSquall.Request::query)
        .containsExactly(Map.of("job", "1"), Map.of("job", "2"));
  }

  @Test
  void eachKeptJobIsMadeIntoWhatTheCallerAsksAsItIsRead() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"1","partition":"gpu"},{"job_id":"2","partition":"x"},{"job_id":"3","partition":"cpu"}]}""");
    List<String> lines = client.jobs(new JobQuery(List.of(), List.of(), List.of(), List.of("gpu", "cpu"), List.of(),
        List.of()), Set.of("state"), j -> j.jobId() + "@" + j.partition());
    assertThat(lines).containsExactly("1@gpu", "3@cpu");
    // Several partitions are filtered here, so the partition is asked for too.
    assertThat(fake.last().query()).containsExactly(Map.entry("fields", "job_id,state,partition"),
        Map.entry("rows", "true"));
    // Several named jobs: one answer each, merged without repeats, then made into lines.
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"1","partition":"gpu"},{"job_id":"3","partition":"cpu"}]}""");
    assertThat(client.jobs(new JobQuery(List.of(), List.of(), List.of(), List.of(), List.of(), List.of("1", "3")),
        Set.of("state"), JobInfo::jobId)).containsExactly("1", "3");
  }

  @Test
  void accountingAsksForTheWindowAsInstants() {
    fake.on("GET", "/v1/accounting", 200, """
        {"jobs":[{"job_id":"42_3","job_id_raw":47,"account":"a"}]}""");
    List<AccountingJob> rows = client.accounting(new AccountingQuery(List.of("bob"), List.of(), List.of("42_3"),
        List.of("COMPLETED"), Instant.parse("2026-11-20T23:00:00Z"), null));
    assertThat(rows).extracting(AccountingJob::jobId, AccountingJob::jobIdRaw).containsExactly(tuple("42_3", 47L));
    assertThat(fake.last().query()).containsExactly(Map.entry("user", "bob"), Map.entry("job", "42_3"),
        Map.entry("start", "2026-11-20T23:00:00Z"), Map.entry("state", "COMPLETED"));
  }

  @Test
  void numericJobIdsAreReadAndTimestampsAreIsoInstantsOnly() {
    fake.on("GET", "/v1/jobs/7", 200, """
        {"job_id":7,"submit_time":"2026-11-21T10:00:00Z","start_time":null}""");
    JobInfo j = client.job("7");
    assertThat(j.jobId()).isEqualTo("7");
    assertThat(j.submitTime()).isEqualTo(Instant.parse("2026-11-21T10:00:00Z"));
    assertThat(j.startTime()).isNull();
    fake.on("GET", "/v1/jobs/7", 200, "{\"job_id\":\"7\",\"submit_time\":1763719200}");
    assertThatThrownBy(() -> client.job("7")).isInstanceOf(ServiceException.class)
        .hasMessageStartingWith("cannot read the service's answer");
    fake.on("GET", "/v1/jobs/7", 200, "{\"job_id\":\"7\",\"submit_time\":\"2026-11-21 10:00\"}");
    assertThatThrownBy(() -> client.job("7")).isInstanceOf(ServiceException.class)
        .hasMessageContaining("not an ISO-8601 instant");
  }

  @Test
  void aMalformedAnswerNamesTheFieldAndNonJsonSaysSo() {
    fake.on("GET", "/v1/jobs", 200, "{\"jobs\":[{\"job_id\":\"1\"},{\"job_id\":\"2\",\"num_nodes\":\"two\"}]}");
    assertThatThrownBy(() -> client.jobs(new JobQuery(List.of(), List.of(), List.of(), List.of(), List.of(), List.of())))
        .isInstanceOf(ServiceException.class)
        .hasMessage("cannot read the service's answer: jobs[1].num_nodes: expected a whole number, got \"two\"");
    fake.on("GET", "/v1/nodes", 200, "{\"nodes\":[{\"state\":\"IDLE\"}]}");
    assertThatThrownBy(client::nodes).hasMessage("cannot read the service's answer: nodes[0].name: missing");
    fake.on("GET", "/v1/partitions", 200, "<html>ok</html>");
    assertThatThrownBy(client::partitions).hasMessage("the service answered 200 without a JSON body");
  }

  /**
   * The service answers each id with what it names (42_3 that task, 47 the task whose own id it
   * is, 42 every task of array 42), so each id is asked for and a job named twice is listed once.
   */
  @Test
  void eachNamedJobIsAskedForAndListedOnce() {
    fake.on("GET", "/v1/accounting", 200, """
        {"jobs":[{"job_id":"42_1"},{"job_id":"42_2"}]}""");
    List<AccountingJob> rows = client.accounting(new AccountingQuery(List.of(), List.of(),
        List.of("42", "47", "42_2"), List.of(), null, null));
    assertThat(rows).extracting(AccountingJob::jobId).containsExactly("42_1", "42_2");
    assertThat(fake.requests()).extracting(FakeSquall.Request::query)
        .containsExactly(Map.of("job", "42"), Map.of("job", "47"), Map.of("job", "42_2"));
  }

  @Test
  void submitsJsonWithSnakeCaseKeysAndNoNulls() {
    fake.on("POST", "/v1/jobs", 201, "{\"job_id\":42,\"warnings\":[\"w1\"]}");
    SubmitResult result = client.submit(new Submission("#!/bin/sh\n", List.of("-N", "2"), "/home/a", "x.sh",
        Map.of("A", "1"), List.of("arg"), null));
    assertThat(result.jobId()).isEqualTo("42");
    assertThat(result.warnings()).containsExactly("w1");
    FakeSquall.Request r = fake.last();
    assertThat(r.header("Content-Type")).isEqualTo("application/json");
    assertThat(r.body()).isEqualTo("{\"script\":\"#!/bin/sh\\n\",\"argv\":[\"-N\",\"2\"],\"submit_dir\":\"/home/a\","
        + "\"script_name\":\"x.sh\",\"environment\":{\"A\":\"1\"},\"script_args\":[\"arg\"]}");
  }

  @Test
  void errorsCarryTheServicesMessageAndStatus() {
    fake.on("DELETE", "/v1/jobs/99", 404, "{\"error\":\"no such job 99\"}");
    assertThatThrownBy(() -> client.cancel("99", null))
        .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(404))
        .hasMessage("no such job 99");
  }

  @Test
  void aRefusedTokenOnASubmissionSaysTheServicesWords() {
    fake.on("POST", "/v1/jobs", 401, "{\"error\":\"unknown token\"}");
    assertThatThrownBy(() -> client.submit(new Submission("#!/bin/sh\n", List.of(), "/home/a", "x.sh", Map.of(),
        List.of(), null)))
        .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(401))
        .hasMessage("unknown token");
  }

  @Test
  void errorsWithoutJsonSayTheStatus() {
    fake.on("GET", "/v1/nodes", 502, "Bad gateway\nmore");
    assertThatThrownBy(client::nodes).hasMessage("the service answered HTTP 502: Bad gateway");
  }

  @Test
  void actionsAndSignalsUseTheDocumentedPaths() {
    fake.on("POST", "/v1/jobs/42_3/hold", 200, "{\"jobs\":[{\"job_id\":\"42_3\",\"held\":true}]}");
    fake.on("DELETE", "/v1/jobs/42", 200, "{\"jobs\":[{\"job_id\":\"42\"}]}");
    assertThat(client.act("42_3", JobAction.HOLD)).extracting(JobInfo::jobId).containsExactly("42_3");
    assertThat(client.cancel("42", null)).extracting(JobInfo::jobId).containsExactly("42");
    assertThat(fake.last().query()).isEmpty();
    client.cancel("42", "USR1");
    assertThat(fake.last().query()).containsExactly(Map.entry("signal", "USR1"));
  }

  @Test
  void noAnswerIsUnreachableWithTheAddressAndAHint() {
    SquallClient dead = new SquallClient(new ServiceAddress(FakeSquall.deadUrl(), null, Path.of("/x")));
    assertThatThrownBy(dead::partitions).isInstanceOf(ServiceUnreachableException.class)
        .hasMessageStartingWith("cannot reach the Squall service at http://127.0.0.1:")
        .hasMessageEndingWith("(start it with bin/squall server)");
  }

  @Test
  void followsAStandbysPointerToTheLeaderAndStaysWithIt() {
    try (FakeSquall standby = FakeSquall.start()) {
      standby.standingBy(fake.url());
      fake.on("POST", "/v1/jobs/7/hold", 200, "{\"jobs\":[{\"job_id\":\"7\",\"held\":true}]}");
      SquallClient ha = new SquallClient(new ServiceAddress(standby.url() + "," + fake.url(), "tok", Path.of("/x")));
      assertThat(ha.act("7", JobAction.HOLD)).extracting(JobInfo::jobId).containsExactly("7");
      assertThat(ha.act("7", JobAction.HOLD)).hasSize(1);
      assertThat(standby.requests()).hasSize(1);
      assertThat(fake.requests()).extracting(FakeSquall.Request::method).containsExactly("POST", "POST");
      assertThat(fake.last().header("Content-Length")).isEqualTo("0");
      // Not the form type HttpURLConnection would give a POST: the service takes JSON only.
      assertThat(fake.last().header("Content-Type")).isEqualTo("application/json");
    }
  }

  @Test
  void everyControllerStandingByIsAnErrorWithTheirWords() {
    fake.standingBy("http://127.0.0.1:1");
    SquallClient ha = new SquallClient(new ServiceAddress(fake.url() + "," + fake.url(), "tok", Path.of("/x")));
    assertThatThrownBy(ha::partitions).isInstanceOf(ServiceException.class)
        .hasMessage("this controller stands by");
  }

  @Test
  void aSubmissionWhoseAnswerNeverCameIsNotSentAgain() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      AtomicInteger requests = new AtomicInteger();
      Thread acceptor = new Thread(() -> {
        // Takes each request and closes the connection without an answer, as a dying service does.
        while (!server.isClosed()) {
          try (Socket s = server.accept()) {
            s.getInputStream().read(new byte[8192]);
            requests.incrementAndGet();
          } catch (IOException e) {
            return;
          }
        }
      });
      acceptor.start();
      SquallClient dying = new SquallClient(new ServiceAddress("http://127.0.0.1:" + server.getLocalPort(), "tok",
          Path.of("/x")));
      assertThatThrownBy(() -> dying.submit(new Submission("#!/bin/sh\n", List.of(), "/home/a", "x.sh", Map.of(),
          List.of(), null))).isInstanceOf(ServiceUnreachableException.class);
      assertThat(requests.get()).isEqualTo(1);
      server.close();
      acceptor.join();
    }
  }

  @Test
  void noTokenSendsNoAuthorization() {
    fake.on("GET", "/v1/partitions", 200, "{\"partitions\":[{\"name\":\"gpu\",\"default\":true}]}");
    SquallClient anonymous = new SquallClient(new ServiceAddress(fake.url(), null, Path.of("/x")));
    assertThat(anonymous.partitions().get(0).defaultPartition()).isTrue();
    assertThat(fake.last().header("Authorization")).isNull();
  }
}
