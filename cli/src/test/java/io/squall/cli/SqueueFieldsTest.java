package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.squall.cli.fake.FakeSquall;
import io.squall.cli.format.TimeFormat;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * squeue asks {@code GET /v1/jobs} only for the fields its format prints ({@code fields=}), and
 * prints from them exactly what it prints from every field.
 */
class SqueueFieldsTest {
  /** What the default format, {@code %.18i %.9P %.8j %.8u %.2t %.10M %.6D %R}, reads. */
  static final String DEFAULT_FIELDS =
      "job_id,array_pending,array_job_id,partition,name,user,state,elapsed_seconds,num_nodes,reason,nodes";

  /** SqueueCommandTest's jobs, an array task and a finished job: every field some job has. */
  private static final String JOBS = """
      {"jobs":[
        {"job_id":"42","job_id_raw":42,"array_job_id":null,"array_task_id":null,"array_pending":null,"name":"train",
         "user":"alice","account":"ml","partition":"gpu","qos":"normal","state":"RUNNING","reason":"None",
         "nodes":"node-[1-2]","num_nodes":2,"num_gpus":16,"num_tasks":2,"time_limit_minutes":60,
         "submit_time":"2026-11-21T10:00:00Z","start_time":"2026-11-21T10:57:57Z","end_time":null,
         "elapsed_seconds":3723,"expected_start":null,"restart_count":0,"exit_code":null,"exit_signal":null,
         "work_dir":"/home/alice","held":false},
        {"job_id":"43","name":"a-very-long-name","user":"bob","account":"ml","partition":"gpu","state":"PENDING",
         "reason":"Priority","nodes":null,"num_nodes":1,"num_gpus":null,"time_limit_minutes":null,
         "submit_time":"2026-11-21T11:00:00Z","start_time":null,"expected_start":"2026-11-21T13:00:00Z",
         "elapsed_seconds":0},
        {"job_id":"44","array_job_id":44,"array_task_id":null,"array_pending":"[4-9%2]","name":"sweep","user":"alice",
         "account":"ml","partition":"cpu","state":"PENDING","reason":"JobArrayTaskLimit","num_nodes":1,
         "elapsed_seconds":0,"time_limit_minutes":1440},
        {"job_id":"44_3","job_id_raw":47,"array_job_id":44,"array_task_id":3,"name":"sweep","user":"alice",
         "account":"ml","partition":"cpu","qos":"low","state":"RUNNING","nodes":"node-3","num_nodes":1,"num_gpus":8,
         "time_limit_minutes":1440,"submit_time":"2026-11-21T09:00:00Z","start_time":"2026-11-21T09:30:00Z",
         "elapsed_seconds":100,"work_dir":"/scratch/sweep"},
        {"job_id":"45","job_id_raw":45,"name":"done","user":"bob","account":"ops","partition":"gpu","state":"TIMEOUT",
         "reason":"TimeLimit","nodes":"node-4","num_nodes":1,"num_gpus":4,"time_limit_minutes":5,
         "submit_time":"2026-11-21T08:00:00Z","start_time":"2026-11-21T08:01:00Z",
         "end_time":"2026-11-21T08:06:00Z","elapsed_seconds":300,"exit_code":0,"exit_signal":9}
      ]}""";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final FakeSquall fake = FakeSquall.start().on("GET", "/v1/jobs", 200, JOBS);
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void theDefaultFormatAsksForTheFieldsItPrints() {
    assertThat(cli.run("squeue").exit()).isZero();
    assertThat(fake.last().query()).containsEntry("fields", DEFAULT_FIELDS);
  }

  @Test
  void aCustomFormatAsksForItsColumnsOnly() {
    cli.run("squeue", "-o", "%u %.10M %j");
    assertThat(fake.last().query()).containsEntry("fields", "job_id,user,elapsed_seconds,name");
    cli.run("squeue", "-O", "username,timelimit");
    assertThat(fake.last().query()).containsEntry("fields", "job_id,user,time_limit_minutes");
    cli.env("SQUEUE_FORMAT", "%a").run("squeue");
    assertThat(fake.last().query()).containsEntry("fields", "job_id,account");
  }

  @Test
  void filtersAppliedHereAreAskedForAndJsonAsksForEverything() {
    cli.run("squeue", "-o", "%u", "-A", "ml,ops", "-p", "gpu,cpu", "-n", "a,b");
    assertThat(fake.last().query()).containsEntry("fields", "job_id,user,account,name,partition");
    cli.run("squeue", "--json");
    assertThat(fake.last().query()).doesNotContainKey("fields");
  }

  /** Each column read from only the fields it asks for prints what it prints from every field. */
  @Test
  void everyFormatPrintsTheSameFromTheFieldsItAskedFor() throws Exception {
    Set<String> letters = SqueueColumns.of(TimeFormat.standard(ZoneOffset.UTC)).keySet();
    List<String[]> formats = new ArrayList<>();
    formats.add(new String[] {});
    formats.add(new String[] {"-l"});
    formats.add(new String[] {"-O", "jobid,arraytaskid,endtime,gres,reasonlist"});
    letters.forEach(letter -> formats.add(new String[] {"-o", "%" + letter}));
    for (String[] format : formats) {
      String[] args = new String[format.length + 1];
      args[0] = "squeue";
      System.arraycopy(format, 0, args, 1, format.length);
      fake.on("GET", "/v1/jobs", 200, JOBS);
      Cli.Result everyField = cli.run(args);
      String fields = fake.last().query().get("fields");
      fake.on("GET", "/v1/jobs", 200, only(fields));
      Cli.Result askedFields = cli.run(args);
      assertThat(askedFields.exit()).isZero();
      assertThat(askedFields.out()).as(String.join(" ", args) + " asked for " + fields).isEqualTo(everyField.out());
    }
  }

  /**
   * JOBS with only {@code csv}'s fields, as the service answers {@code fields=csv&rows=true}: the
   * names once, then each job's values in their order (null where JOBS has none).
   */
  private static String only(String csv) throws Exception {
    List<String> names = List.of(csv.split(","));
    ObjectNode answer = JSON.createObjectNode();
    names.forEach(answer.putArray("fields")::add);
    var rows = answer.putArray("rows");
    for (JsonNode job : JSON.readTree(JOBS).get("jobs")) {
      var row = rows.addArray();
      names.forEach(n -> row.add(job.has(n) ? job.get(n) : NullNode.getInstance()));
    }
    return JSON.writeValueAsString(answer);
  }

  /** A request's query without {@code fields} and {@code rows}: the filters it sent. */
  static Map<String, String> filters(FakeSquall.Request request) {
    Map<String, String> q = new LinkedHashMap<>(request.query());
    q.remove("fields");
    q.remove("rows");
    return q;
  }
}
