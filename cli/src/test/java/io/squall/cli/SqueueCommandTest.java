package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SqueueCommandTest {
  static final String JOBS = """
      {"jobs":[
        {"job_id":"42","array_job_id":null,"array_task_id":null,"array_pending":null,"name":"train","user":"alice",
         "account":"ml","partition":"gpu","qos":"normal","state":"RUNNING","reason":"None","nodes":"node-[1-2]",
         "num_nodes":2,"num_gpus":16,"num_tasks":2,"time_limit_minutes":60,"submit_time":"2026-11-21T10:00:00Z",
         "start_time":"2026-11-21T10:57:57Z","end_time":null,"elapsed_seconds":3723,"expected_start":null,
         "restart_count":0,"exit_code":null,"exit_signal":null,"work_dir":"/home/alice","held":false},
        {"job_id":"43","name":"a-very-long-name","user":"bob","account":"ml","partition":"gpu","state":"PENDING",
         "reason":"Priority","nodes":null,"num_nodes":1,"num_gpus":null,"time_limit_minutes":null,
         "submit_time":"2026-11-21T11:00:00Z","start_time":null,"expected_start":"2026-11-21T13:00:00Z",
         "elapsed_seconds":0},
        {"job_id":"44","array_job_id":44,"array_task_id":null,"array_pending":"[4-9%2]","name":"sweep","user":"alice",
         "account":"ml","partition":"cpu","state":"PENDING","reason":"JobArrayTaskLimit","num_nodes":1,
         "elapsed_seconds":0,"time_limit_minutes":1440}
      ]}""";

  private final FakeSquall fake = FakeSquall.start().on("GET", "/v1/jobs", 200, JOBS);
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void defaultFormatIsSlurms() {
    Cli.Result r = cli.run("squeue");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("""
                     JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)
                        42       gpu    train    alice  R    1:02:03      2 node-[1-2]
                        43       gpu a-very-l      bob PD       0:00      1 (Priority)
                44_[4-9%2]       cpu    sweep    alice PD       0:00      1 (JobArrayTaskLimit)
        """);
    FakeSquall.Request req = fake.last();
    assertThat(req.method()).isEqualTo("GET");
    assertThat(req.path()).isEqualTo("/v1/jobs");
    assertThat(req.query()).containsExactly(Map.entry("state", "PENDING,CONFIGURING,RUNNING,COMPLETING,REQUEUED"),
        Map.entry("fields", SqueueFieldsTest.DEFAULT_FIELDS), Map.entry("rows", "true"));
    assertThat(req.header("Authorization")).isEqualTo("Bearer " + Cli.TOKEN);
  }

  @Test
  void anAbsurdFieldWidthIsRefusedAtOnce() {
    Cli.Result r = cli.run("squeue", "-o", "%99999999i");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("the width 99999999 is over 4096");
    assertThat(cli.run("squeue", "-o", "%4096i").exit()).isZero();
  }

  @Test
  void filtersGoToTheService() {
    cli.run("squeue", "-u", "bob", "--partition=gpu", "-tPD,r", "-A", "ml", "--name", "train", "-j", "43");
    assertThat(fake.last().query()).containsExactly(Map.entry("state", "PENDING,RUNNING"), Map.entry("user", "bob"),
        Map.entry("account", "ml"), Map.entry("partition", "gpu"), Map.entry("name", "train"), Map.entry("job", "43"),
        Map.entry("fields", SqueueFieldsTest.DEFAULT_FIELDS), Map.entry("rows", "true"));
  }

  @Test
  void namedJobsAndStatesAllShowEveryStateAndMeIsTheLocalUser() {
    cli.run("squeue", "-j", "42");
    assertThat(SqueueFieldsTest.filters(fake.last())).containsExactly(Map.entry("job", "42"));
    cli.run("squeue", "--states=all", "--me");
    assertThat(SqueueFieldsTest.filters(fake.last())).containsExactly(Map.entry("user", "alice"));
  }

  @Test
  void namedTaskRangesAreExpandedAndBadIdsRefusedLocally() {
    cli.run("squeue", "-j", "44_[4,6-7],42");
    assertThat(fake.requests()).extracting(SqueueFieldsTest::filters).containsExactly(Map.of("job", "44_4"),
        Map.of("job", "44_6"), Map.of("job", "44_7"), Map.of("job", "42"));
    Cli.Result r = cli.run("squeue", "-j", "42,4x2");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("squeue: error: Invalid job id 4x2\n");
    assertThat(fake.requests()).hasSize(4);
  }

  @Test
  void formatSpecifiersWithWidthsAndSides() {
    Cli.Result r = cli.run("squeue", "-h", "-o", "%i|%-6j|%10P|%.4T|%t|%l|%M|%D|%N|%a|%b|%S|%V|%e|%q|%Q|%r|%u|%C|%R");
    assertThat(r.out().lines()).containsExactly(
        "42|train |gpu       |RUNN|R|1:00:00|1:02:03|2|node-[1-2]|ml|gres/gpu:8|2026-11-21T10:57:57|"
            + "2026-11-21T10:00:00|2026-11-21T11:57:57|normal||None|alice|N/A|node-[1-2]",
        "43|a-very|gpu       |PEND|PD|UNLIMITED|0:00|1||ml|N/A|2026-11-21T13:00:00|2026-11-21T11:00:00|N/A|"
            + "||Priority|bob|N/A|(Priority)",
        "44_[4-9%2]|sweep |cpu       |PEND|PD|1-00:00:00|0:00|1||ml|N/A|N/A|N/A|N/A|||JobArrayTaskLimit|alice|N/A|"
            + "(JobArrayTaskLimit)");
  }

  @Test
  void headersFollowTheFormatAndLongShowsStateAndLimit() {
    assertThat(cli.run("squeue", "-o", "%.5i %j %A %F %K").out().lines().findFirst()).hasValue(
        "JOBID NAME JOBID ARRAY_JOB_ID ARRAY_TASK_ID");
    // A long listing starts with the date, as squeue's (not with -h).
    assertThat(cli.run("squeue", "-l").out().lines().limit(2)).containsExactly("Sat Nov 21 12:00:00 2026",
        "             JOBID PARTITION     NAME     USER    STATE       TIME TIME_LIMI  NODES NODELIST(REASON)");
    assertThat(cli.run("squeue", "-l", "-h").out()).doesNotContain("2026");
  }

  /** As squeue(1): %i is 44_3, %A the task's own job id, %F its array's id, %K its index. */
  @Test
  void anArrayTaskShowsItsOwnJobIdAndItsArrays() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"44_3","job_id_raw":47,"array_job_id":44,"array_task_id":3,"state":"RUNNING"},
         {"job_id":"42","job_id_raw":42,"state":"RUNNING"}]}""");
    assertThat(cli.run("squeue", "-h", "-o", "%i %A %F %K").out()).isEqualTo("44_3 47 44 3\n42 42 42 N/A\n");
  }

  @Test
  void badStatesAndFormatsAreUsageErrors() {
    Cli.Result r = cli.run("squeue", "-t", "R,napping");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("squeue: error: Invalid job state specified: napping");
    r = cli.run("squeue", "-o", "%i %y");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("squeue: error: Invalid format specification: %y");
    r = cli.run("squeue", "--bogus");
    assertThat(r.err()).isEqualTo("squeue: error: unrecognized option '--bogus'\n"
        + "Try \"squeue --help\" for more information\n");
    assertThat(fake.requests()).isEmpty();
  }

  @Test
  void serviceErrorsPrintItsMessage() {
    fake.on("GET", "/v1/jobs", 401, "{\"error\":\"unknown token\"}");
    Cli.Result r = cli.run("squeue");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("squeue: error: unknown token\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void aMissingTokenIsExplainedOn401() {
    fake.on("GET", "/v1/jobs", 401, "{\"error\":\"missing bearer token\"}");
    Cli.Result r = cli.env("SQUALL_TOKEN", null).run("squeue");
    assertThat(r.err()).isEqualTo("squeue: error: missing bearer token\n"
        + "squeue: error: no token configured: set SQUALL_TOKEN, or put 'token = ...' in "
        + "/nonexistent-home/.config/squall/config\n");
    assertThat(fake.last().header("Authorization")).isNull();
  }

  @Test
  void anUnreachableServiceSaysWhereAndHowToStartIt() {
    String dead = FakeSquall.deadUrl();
    Cli.Result r = new Cli(dead).run("squeue");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("squeue: error: cannot reach the Squall service at " + dead + ": ")
        .endsWith(" (start it with bin/squall server)\n");
  }

  @Test
  void helpPrintsUsage() {
    Cli.Result r = cli.run("squeue", "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("Usage: squeue");
  }

  @Test
  void nodesQosAndReservationFilterTheListedJobs() {
    assertThat(cli.run("squeue", "-h", "-w", "node-2", "-o", "%i").out()).isEqualTo("42\n");
    assertThat(fake.last().query().get("fields")).contains("nodes");
    assertThat(cli.run("squeue", "-h", "--nodelist=node-[5-6]", "-o", "%i").out()).isEmpty();
    assertThat(cli.run("squeue", "-h", "-q", "NORMAL", "-o", "%i %q").out()).isEqualTo("42 normal\n");
    assertThat(cli.run("squeue", "-w", "node-[1").err()).isEqualTo("squeue: error: Invalid node name node-[1\n");
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"50","state":"PENDING","reservation":"maint"},{"job_id":"51","state":"PENDING"}]}""");
    assertThat(cli.run("squeue", "-h", "-R", "maint", "-o", "%i %v").out()).isEqualTo("50 maint\n");
  }

  @Test
  void startListsPendingJobsSoonestFirstWithTheirExpectedStart() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[
          {"job_id":"43","name":"eval","user":"bob","partition":"gpu","state":"PENDING","reason":"Priority",
           "num_nodes":1,"expected_start":"2026-11-21T13:00:00Z"},
          {"job_id":"44","name":"sweep","user":"alice","partition":"gpu","state":"PENDING","reason":"Resources",
           "num_nodes":1,"expected_start":null},
          {"job_id":"45","name":"train","user":"alice","partition":"gpu","state":"PENDING","reason":"Resources",
           "num_nodes":4,"expected_start":"2026-11-21T12:30:00Z"}
        ]}""");
    Cli.Result r = cli.run("squeue", "--start");
    assertThat(fake.last().query()).containsEntry("state", "PENDING");
    assertThat(r.out()).isEqualTo("""
                     JOBID PARTITION     NAME     USER ST          START_TIME  NODES SCHEDNODES           NODELIST(REASON)
                        45       gpu    train    alice PD 2026-11-21T12:30:00      4 (null)               (Resources)
                        43       gpu     eval      bob PD 2026-11-21T13:00:00      1 (null)               (Priority)
                        44       gpu    sweep    alice PD                 N/A      1 (null)               (Resources)
        """);
  }

  @Test
  void arrayListsEachPendingTaskOnALineOfItsOwn() {
    assertThat(cli.run("squeue", "-h", "-r", "-o", "%i %F %K %t").out()).isEqualTo("""
        42 42 N/A R
        43 43 N/A PD
        44_4 44 4 PD
        44_5 44 5 PD
        44_6 44 6 PD
        44_7 44 7 PD
        44_8 44 8 PD
        44_9 44 9 PD
        """);
  }

  @Test
  void sortOrdersByTheFieldsGivenNumbersAsNumbers() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"100","user":"bob","state":"PENDING"},{"job_id":"42","user":"carol","state":"RUNNING"},
                 {"job_id":"7","user":"bob","state":"RUNNING"}]}""");
    assertThat(cli.run("squeue", "-h", "--sort=-i", "-o", "%i").out()).isEqualTo("100\n42\n7\n");
    assertThat(cli.run("squeue", "-h", "-S", "u,i", "-o", "%i %u").out()).isEqualTo("7 bob\n100 bob\n42 carol\n");
    assertThat(fake.last().query().get("fields")).contains("user");
    assertThat(cli.run("squeue", "-S", "%").err()).isEqualTo("squeue: error: Invalid sort specification: %\n");
  }

  @Test
  void iteratePrintsTheTimeAndTheQueueEveryPeriodUntilStopped() {
    Cli.Result r = cli.interruptPause(2).run("squeue", "-i", "30", "-o", "%i %t");
    assertThat(cli.pauses()).containsExactly(Duration.ofSeconds(30), Duration.ofSeconds(30));
    assertThat(r.out()).isEqualTo("Sat Nov 21 12:00:00 2026\nJOBID ST\n42 R\n43 PD\n44_[4-9%2] PD\n\n".repeat(2));
    assertThat(r.exit()).isZero();
  }
}
