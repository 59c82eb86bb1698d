package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.cli.fake.FakeSquall;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SacctCommandTest {
  static final String ROWS = """
      {"jobs":[
        {"job_id":"42","name":"train","user":"alice","account":"ml","partition":"gpu","state":"COMPLETED",
         "exit_code":0,"exit_signal":null,"submit_time":"2026-11-21T08:00:00Z","start_time":"2026-11-21T09:00:00Z",
         "end_time":"2026-11-21T10:01:01Z","elapsed_seconds":3661,"num_nodes":2,"num_gpus":16,"gpu_hours":16.271,
         "nodes":"node-[1-2]","restart_count":1},
        {"job_id":"43_1","name":"preprocessing","user":"alice","account":"ml","partition":"cpu","state":"FAILED",
         "exit_code":2,"exit_signal":null,"submit_time":"2026-11-21T08:00:00Z","start_time":"2026-11-21T09:00:00Z",
         "end_time":"2026-11-21T09:00:05Z","elapsed_seconds":5,"num_nodes":1,"num_gpus":1,"gpu_hours":0.001,
         "nodes":"node-3","restart_count":0},
        {"job_id":"44","name":"oom","user":"bob","account":"research-long","partition":"gpu","state":"CANCELLED",
         "exit_code":0,"exit_signal":9,"submit_time":"2026-11-21T08:00:00Z","start_time":"2026-11-21T11:00:00Z",
         "end_time":null,"elapsed_seconds":90000,"num_nodes":1,"num_gpus":8,"gpu_hours":200.0,"nodes":"node-4",
         "restart_count":0}
      ]}""";

  private final FakeSquall fake = FakeSquall.start().on("GET", "/v1/accounting", 200, ROWS);
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void defaultColumnsWithSlurmsWidthsAndTruncationMarks() {
    Cli.Result r = cli.run("sacct");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("""
        JobID           JobName  Partition    Account  AllocCPUS      State ExitCode
        ------------ ---------- ---------- ---------- ---------- ---------- --------
        42                train        gpu         ml             COMPLETED      0:0
        43_1         preproces+        cpu         ml                FAILED      2:0
        44                  oom        gpu research-+             CANCELLED      0:9
        """);
    FakeSquall.Request req = fake.last();
    assertThat(req.path()).isEqualTo("/v1/accounting");
    assertThat(req.query()).isEmpty();
    assertThat(req.header("Authorization")).isEqualTo("Bearer " + Cli.TOKEN);
  }

  @Test
  void formatFieldsAnyCaseWithWidthsAndParsable() {
    Cli.Result r = cli.run("sacct", "-P", "--format=jobid,JobName%30,user,start,end,elapsed,nnodes,nodelist,"
        + "alloctres,gpuhours,submit,restartcount,exitcode,state");
    assertThat(r.out()).isEqualTo("""
        JobID|JobName|User|Start|End|Elapsed|NNodes|NodeList|AllocTRES|GPUHours|Submit|RestartCount|ExitCode|State
        42|train|alice|2026-11-21T09:00:00|2026-11-21T10:01:01|01:01:01|2|node-[1-2]|gres/gpu=16,node=2|16.27|\
        2026-11-21T08:00:00|1|0:0|COMPLETED
        43_1|preprocessing|alice|2026-11-21T09:00:00|2026-11-21T09:00:05|00:00:05|1|node-3|gres/gpu=1,node=1|0.00|\
        2026-11-21T08:00:00|0|2:0|FAILED
        44|oom|bob|2026-11-21T11:00:00|Unknown|1-01:00:00|1|node-4|gres/gpu=8,node=1|200.00|\
        2026-11-21T08:00:00|0|0:9|CANCELLED
        """);
  }

  /** As sacct(1): JobID is 43_1 for an array task, JobIDRaw its own job id; -j takes either. */
  @Test
  void jobIdRawIsAnArrayTasksOwnJobId() {
    fake.on("GET", "/v1/accounting", 200, """
        {"jobs":[{"job_id":"43_1","job_id_raw":47,"state":"COMPLETED"},{"job_id":"42","job_id_raw":42}]}""");
    Cli.Result r = cli.run("sacct", "-P", "-n", "-j", "47,42", "--format=JobID,JobIDRaw");
    assertThat(r.out()).isEqualTo("43_1|47\n42|42\n");
    assertThat(fake.requests()).extracting(FakeSquall.Request::query).containsExactly(
        Map.of("job", "47", "start", "1970-01-01T00:00:00Z"), Map.of("job", "42", "start", "1970-01-01T00:00:00Z"));
  }

  @Test
  void costCapacityTypeAndInstanceTypeFields() {
    fake.on("GET", "/v1/accounting", 200, """
        {"jobs":[{"job_id":"45","name":"train","user":"alice","account":"ml","partition":"gpu","state":"COMPLETED",
          "exit_code":0,"submit_time":"2026-11-21T08:00:00Z","start_time":"2026-11-21T09:00:00Z",
          "end_time":"2026-11-21T10:00:00Z","elapsed_seconds":3600,"num_nodes":2,"num_gpus":16,"gpu_hours":16.0,
          "nodes":"cloud-[1-2]","restart_count":1,"cost_usd":123.456,"on_demand_usd":800.0,"lost_usd":2.5,
          "capacity_type":"ON_DEMAND,SPOT","instance_type":"p5.48xlarge"},
         {"job_id":"46","name":"eval","user":"alice","account":"ml","partition":"cpu","state":"COMPLETED",
          "exit_code":0,"submit_time":"2026-11-21T08:00:00Z","start_time":"2026-11-21T09:00:00Z",
          "end_time":"2026-11-21T10:00:00Z","elapsed_seconds":3600,"num_nodes":1,"num_gpus":0,"gpu_hours":0.0,
          "nodes":"node-1","restart_count":0,"cost_usd":0.0,"on_demand_usd":0.0,"lost_usd":0.0,
          "capacity_type":null,"instance_type":null}]}""");
    Cli.Result r = cli.run("sacct", "-P", "-o", "JobID,Cost,GPUHours,CapacityType,InstanceType");
    assertThat(r.out()).isEqualTo("""
        JobID|Cost|GPUHours|CapacityType|InstanceType
        45|123.46|16.00|on-demand,spot|p5.48xlarge
        46|0.00|0.00||
        """);
  }

  @Test
  void widthSuffixesAndNoHeader() {
    Cli.Result r = cli.run("sacct", "-n", "-X", "-o", "JobID%-6,JobName%4,State%-10");
    assertThat(r.out()).isEqualTo("""
        42     tra+ COMPLETED
        43_1   pre+ FAILED
        44      oom CANCELLED
        """);
    assertThat(cli.run("sacct", "--parsable", "-o", "jobid", "-n").out()).isEqualTo("42|\n43_1|\n44|\n");
  }

  @Test
  void timesAreReadInTheLocalZoneAndSentAsInstants() {
    cli.zone("Europe/Berlin").run("sacct", "-S", "2026-11-20", "-E", "now-1hours", "-u", "alice,bob", "-s", "CD,F",
        "-A", "ml");
    assertThat(fake.last().query()).containsExactly(Map.entry("user", "alice,bob"), Map.entry("account", "ml"),
        Map.entry("start", "2026-11-19T23:00:00Z"), Map.entry("end", "2026-11-21T11:00:00Z"),
        Map.entry("state", "COMPLETED,FAILED"));
  }

  @Test
  void namedJobsLookBeyondTodayAndSeveralAreAskedOneByOne() {
    cli.run("sacct", "-j", "42,43_1");
    assertThat(fake.requests()).extracting(FakeSquall.Request::query).containsExactly(
        Map.of("job", "42", "start", "1970-01-01T00:00:00Z"), Map.of("job", "43_1", "start", "1970-01-01T00:00:00Z"));
  }

  @Test
  void eachTaskOfARangeIsAskedForAndRangesAreNotSplitAtTheirCommas() {
    fake.on("GET", "/v1/accounting", 200, "{\"jobs\":[]}");
    assertThat(cli.run("sacct", "-n", "-P", "-o", "jobid", "-j", "43_[1,2],42").exit()).isZero();
    assertThat(fake.requests()).extracting(FakeSquall.Request::query).containsExactly(
        Map.of("job", "43_1", "start", "1970-01-01T00:00:00Z"), Map.of("job", "43_2", "start", "1970-01-01T00:00:00Z"),
        Map.of("job", "42", "start", "1970-01-01T00:00:00Z"));
    Cli.Result r = cli.run("sacct", "-j", "43_[1,x]");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("sacct: error: Invalid job id 43_[1,x]: ");
    assertThat(fake.requests()).hasSize(3);
  }

  @Test
  void badFieldsAndTimesAreUsageErrors() {
    Cli.Result r = cli.run("sacct", "-o", "JobID,MaxRSSS");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("sacct: error: Invalid field requested: \"MaxRSSS\"");
    r = cli.run("sacct", "-S", "yesterdayish");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("sacct: error: invalid time 'yesterdayish'");
    assertThat(fake.requests()).isEmpty();
  }

  @Test
  void theServicesRefusalIsPrinted() {
    fake.on("GET", "/v1/accounting", 400, "{\"error\":\"start=x: expected an ISO-8601 instant\"}");
    Cli.Result r = cli.run("sacct");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("sacct: error: start=x: expected an ISO-8601 instant\n");
  }

  @Test
  void requestLimitQosAndTheOtherFieldsSquallRecords() throws IOException {
    fake.on("GET", "/v1/accounting", 200, """
        {"jobs":[{"job_id":"45","name":"train","user":"alice","account":"ml","partition":"gpu","state":"COMPLETED",
          "exit_code":0,"submit_time":"2026-11-21T08:00:00Z","eligible_time":"2026-11-21T08:30:00Z",
          "start_time":"2026-11-21T09:00:00Z","end_time":"2026-11-21T10:00:00Z","elapsed_seconds":3600,
          "num_nodes":2,"num_gpus":16,"num_cpus":64,"memory_mb":131072,"num_tasks":16,"nodes":"node-[1-2]",
          "qos":"high","time_limit_minutes":120,"req_nodes":2,"req_gpus":16,"req_cpus":64,"req_memory_mb":4000,
          "cluster":"squall","work_dir":"/home/alice","reason":"None","comment":"sweep 3",
          "constraints":"h100","reservation":null}]}""");
    Cli.Result r = cli.run("sacct", "-P", "-n", "-o", "Timelimit,TimelimitRaw,QOS,ReqTRES,AllocTRES,AllocCPUS,NCPUS,"
        + "ReqNodes,ReqCPUS,AllocNodes,NTasks,CPUTime,CPUTimeRAW,Eligible,Planned,Reserved,Suspended,Cluster,WorkDir,"
        + "Reason,Comment,Constraints,Reservation");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("02:00:00|120|high|cpu=64,gres/gpu=16,mem=4000M,node=2|"
        + "cpu=64,gres/gpu=16,mem=128G,node=2|64|64|2|64|2|16|2-16:00:00|230400|2026-11-21T08:30:00|00:30:00|"
        + "00:30:00|00:00:00|squall|/home/alice|None|sweep 3|h100|\n");
    assertThat(cli.run("sacct", "-n", "-o", "timelimit").out()).isEqualTo("  02:00:00\n");
    JsonNode job = new ObjectMapper().readTree(cli.run("sacct", "--json").out()).get("jobs").get(0);
    assertThat(job.get("qos").asText()).isEqualTo("high");
    assertThat(job.at("/time/limit/number").asInt()).isEqualTo(120);
    assertThat(job.at("/time/eligible").asLong()).isEqualTo(1795249800L);
    assertThat(job.get("working_directory").asText()).isEqualTo("/home/alice");
    assertThat(job.at("/tres/requested").findValuesAsText("type")).containsExactly("cpu", "mem", "node", "gres");
    assertThat(job.at("/tres/requested/1/count").asLong()).isEqualTo(4000);
  }

  @Test
  void slurmsFieldsSquallDoesNotRecordPrintEmptySoASitesFormatStillWorks() {
    Cli.Result r = cli.run("sacct", "-j", "42", "-o", "JobID,MaxRSS,AveCPU%4,ExitCode");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().lines()).startsWith("JobID            MaxRSS AveC ExitCode",
        "------------ ---------- ---- --------");
    assertThat(r.out().lines().skip(2).findFirst()).hasValue("42                                0:0");
  }

  @Test
  void nameNodePartitionAndQosFilterTheRecords() {
    assertThat(cli.run("sacct", "-n", "-P", "--name=train,oom", "-o", "JobID").out()).isEqualTo("42\n44\n");
    assertThat(cli.run("sacct", "-n", "-P", "-r", "cpu", "-o", "JobID").out()).isEqualTo("43_1\n");
    assertThat(cli.run("sacct", "-n", "-P", "-N", "node-[2-3]", "-o", "JobID,NodeList").out())
        .isEqualTo("42|node-[1-2]\n43_1|node-3\n");
    assertThat(cli.run("sacct", "-n", "-P", "-q", "normal", "-o", "JobID").out()).as("no record names a QOS").isEmpty();
    assertThat(cli.run("sacct", "-N", "node-[").err()).isEqualTo("sacct: error: Invalid node list: node-[\n");
  }

  @Test
  void aFieldNameMayBeTheStartOfOneAndADelimiterReplacesTheBar() {
    assertThat(cli.run("sacct", "-n", "-p", "--delimiter=,", "-o", "jobn,exitc").out().lines())
        .containsExactly("train,0:0,", "preprocessing,2:0,", "oom,0:9,");
  }

  @Test
  void longAndHelpFormatAreSacctsLists() {
    Cli.Result r = cli.run("sacct", "-l", "-P", "-j", "42");
    assertThat(r.err()).isEmpty();
    String header = r.out().lines().findFirst().orElseThrow();
    assertThat(header).startsWith("JobID|JobIDRaw|JobName|Partition|MaxVMSize|MaxVMSizeNode|")
        .contains("|TRESUsageInMaxNode|TRESUsageInMaxTask|").endsWith("|TRESUsageOutTot");
    assertThat(header.split("\\|")).hasSize(54);
    String help = cli.run("sacct", "-e").out();
    assertThat(help).contains("JobID").contains("TRESUsageOutTot").contains("GPUHours");
  }
}
