package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
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
    assertThat(cli.run("squeue", "-l").out().lines().findFirst()).hasValue(
        "             JOBID PARTITION     NAME     USER    STATE       TIME TIME_LIMI  NODES NODELIST(REASON)");
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
}
