package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ScontrolCommandTest {
  private static final String JOB = """
      {"job_id":"42_3","job_id_raw":47,"array_job_id":42,"array_task_id":3,"array_pending":null,"name":"train","user":"alice",
       "account":"ml","partition":"gpu","qos":"normal","state":"RUNNING","reason":"None","nodes":"node-[1-2]",
       "num_nodes":2,"num_gpus":4,"num_tasks":2,"time_limit_minutes":60,"submit_time":"2026-11-21T10:00:00Z",
       "start_time":"2026-11-21T11:00:00Z","end_time":null,"elapsed_seconds":3600,"expected_start":null,
       "restart_count":0,"exit_code":null,"exit_signal":null,"work_dir":"/home/alice","stdout":"/home/alice/slurm-42_3.out",
       "stderr":"/home/alice/slurm-42_3.out","held":false,
       "request":{"dependency":null,"requeue":true},
       "allocation":[{"node":"node-1","gpus":[0,1]},{"node":"node-2","gpus":[4,5]}],
       "events":[{"time":"2026-11-21T10:00:00Z","state":"PENDING","reason":"Priority"}],"script":"#!/bin/sh\\n"}""";
  private static final String NODES = """
      {"nodes":[{"name":"node-1","state":"MIXED","reason":null,"partitions":["gpu"],"gpus":8,"gpus_allocated":2,
        "gpu_type":"h100","cpus":96,"memory_mb":1000000,"features":["h100","ib"],"placement_group":"pg0",
        "jobs":["42_3"],"last_heartbeat":"2026-11-21T11:59:50Z"},
       {"name":"node-9","state":"DOWN","reason":"agent lost","reason_user":"squall","reason_time":"2026-11-21T11:58:00Z",
        "partitions":[],"gpus":0,"jobs":[]}]}""";
  private static final String PARTITIONS = """
      {"partitions":[{"name":"gpu","default":true,"nodes":"node-[1-4]","total_nodes":4,"nodes_by_state":{"IDLE":4},
        "total_gpus":32,"max_time_minutes":null,"default_time_minutes":60,"max_nodes":2,"priority_tier":1,
        "state":"UP"}]}""";
  private static final String CHANGED = "{\"jobs\":[{\"job_id\":\"42\"}]}";

  private final FakeSquall fake = FakeSquall.start().on("GET", "/v1/jobs/42_3", 200, JOB)
      .on("GET", "/v1/nodes", 200, NODES).on("GET", "/v1/partitions", 200, PARTITIONS);
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void showJobInSlurmsKeyValueLayout() {
    Cli.Result r = cli.run("scontrol", "show", "job", "42_3");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("""
        JobId=47 ArrayJobId=42 ArrayTaskId=3 JobName=train
           UserId=alice
           Account=ml QOS=normal
           JobState=RUNNING Reason=None Dependency=(null)
           Requeue=1 Restarts=0 ExitCode=0:0
           RunTime=01:00:00 TimeLimit=01:00:00
           SubmitTime=2026-11-21T10:00:00
           StartTime=2026-11-21T11:00:00 EndTime=2026-11-21T12:00:00
           Partition=gpu
           NodeList=node-[1-2]
           NumNodes=2 NumTasks=2
           TRES=gres/gpu=4,node=2
             Nodes=node-1 GRES=gpu:2(IDX:0-1)
             Nodes=node-2 GRES=gpu:2(IDX:4-5)
           WorkDir=/home/alice
           StdErr=/home/alice/slurm-42_3.out
           StdOut=/home/alice/slurm-42_3.out

        """);
    assertThat(fake.last().path()).isEqualTo("/v1/jobs/42_3");
    assertThat(fake.last().header("Authorization")).isEqualTo("Bearer " + Cli.TOKEN);
  }

  @Test
  void anInteractiveAllocationShowsBatchFlag0() {
    fake.on("GET", "/v1/jobs/7", 200, "{\"job_id\":\"7\",\"job_id_raw\":7,\"name\":\"bash\",\"state\":\"RUNNING\","
        + "\"restart_count\":0,\"batch\":false}");
    Cli.Result r = cli.run("scontrol", "show", "job", "7");
    assertThat(r.out()).contains("Restarts=0 BatchFlag=0 ExitCode=");
  }

  @Test
  void oneLinerPutsARecordOnOneLine() {
    Cli.Result r = cli.run("scontrol", "-o", "show", "partition");
    assertThat(r.out()).isEqualTo("PartitionName=gpu Default=YES DefaultTime=01:00:00 MaxNodes=2 MaxTime=UNLIMITED"
        + " Nodes=node-[1-4] PriorityTier=1 State=UP TotalNodes=4 TRES=gres/gpu=32,node=4\n");
  }

  @Test
  void showNodeByName() {
    Cli.Result r = cli.run("scontrol", "show", "node", "node-1");
    assertThat(r.out()).isEqualTo("""
        NodeName=node-1
           CPUTot=96 RealMemory=1000000
           AvailableFeatures=h100,ib
           ActiveFeatures=h100,ib
           Gres=gpu:h100:8
           State=MIXED
           Partitions=gpu
           CfgTRES=cpu=96,gres/gpu=8
           AllocTRES=gres/gpu=2
           PlacementGroup=pg0 LastHeartbeat=2026-11-21T11:59:50
           Jobs=42_3

        """);
    r = cli.run("scontrol", "show", "node", "node-7");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scontrol: error: Node node-7 not found\n");
  }

  @Test
  void aNodesReasonSaysWhoSetItAndWhen() {
    assertThat(cli.run("scontrol", "show", "node", "node-9").out())
        .contains("\n   Reason=agent lost [squall@2026-11-21T11:58:00]\n");
  }

  @Test
  void showNodeTakesAHostlistAndNamesTheMissingOnes() {
    Cli.Result r = cli.run("scontrol", "-o", "show", "node", "node-[1,9]");
    assertThat(r.exit()).isZero();
    assertThat(r.out().lines()).extracting(l -> l.substring(0, l.indexOf(' ')))
        .containsExactly("NodeName=node-1", "NodeName=node-9");
    assertThat(cli.run("scontrol", "-o", "show", "node", "node-9", "node-1").out().lines()).hasSize(2);
    r = cli.run("scontrol", "-o", "show", "node", "node-[1-3]");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).startsWith("NodeName=node-1 ");
    assertThat(r.err()).isEqualTo("scontrol: error: Node node-2 not found\nscontrol: error: Node node-3 not found\n");
    r = cli.run("scontrol", "show", "node", "node-[1");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("scontrol: error: invalid hostlist: ");
  }

  @Test
  void unknownJobIsTheServicesMessage() {
    fake.on("GET", "/v1/jobs/99", 404, "{\"error\":\"Invalid job id specified\"}");
    Cli.Result r = cli.run("scontrol", "show", "job", "99");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scontrol: error: Invalid job id specified\n");
  }

  @Test
  void hostnamesAndHostlistAreLocal() {
    Cli local = new Cli(FakeSquall.deadUrl()).env("SLURM_JOB_NODELIST", "gpu[01-03],cpu1");
    Cli.Result r = local.run("scontrol", "show", "hostnames");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("gpu01\ngpu02\ngpu03\ncpu1\n");
    assertThat(local.run("scontrol", "show", "hostnames", "n[1-2]").out()).isEqualTo("n1\nn2\n");
    assertThat(local.run("scontrol", "show", "hostlist", "n1,n2,n3,n7").out()).isEqualTo("n[1-3,7]\n");
    Cli.Result bad = local.env("SLURM_JOB_NODELIST", null).run("scontrol", "show", "hostnames");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).contains("SLURM_JOB_NODELIST is not set");
  }

  @Test
  void hugeHostlistRangesAreAnErrorNotAStackTrace() {
    Cli local = new Cli(FakeSquall.deadUrl());
    Cli.Result r = local.run("scontrol", "show", "hostnames", "n[1-99999999999999999999]");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("numbers have at most 18 digits").doesNotContain("Exception");
    r = local.run("scontrol", "show", "hostnames", "n[1-99999999]");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("too large").doesNotContain("Exception");
  }

  @Test
  void aTokenWithALineBreakIsAConfigurationError() {
    Cli.Result r = cli.env("SQUALL_TOKEN", "alice\ntoken").run("scontrol", "show", "job", "42");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("contains a control character, such as a line break").doesNotContain("Exception");
  }

  @Test
  void holdReleaseRequeuePostToTheJob() {
    fake.on("POST", "/v1/jobs/42/hold", 200, CHANGED).on("POST", "/v1/jobs/43/hold", 200, CHANGED)
        .on("POST", "/v1/jobs/42/release", 200, CHANGED).on("POST", "/v1/jobs/42_3/requeue", 200, CHANGED);
    assertThat(cli.run("scontrol", "hold", "42,43").exit()).isZero();
    assertThat(cli.run("scontrol", "release", "42").exit()).isZero();
    assertThat(cli.run("scontrol", "requeue", "42_3").exit()).isZero();
    assertThat(fake.requests()).extracting(FakeSquall.Request::method).containsOnly("POST");
    assertThat(fake.requests()).extracting(FakeSquall.Request::path).containsExactly("/v1/jobs/42/hold",
        "/v1/jobs/43/hold", "/v1/jobs/42/release", "/v1/jobs/42_3/requeue");
  }

  @Test
  void pausePostsToTheJobAndNeedsAnId() {
    fake.on("POST", "/v1/jobs/42/pause", 200, CHANGED);
    assertThat(cli.run("pause", "42").exit()).isZero();
    assertThat(fake.requests()).extracting(FakeSquall.Request::path).containsExactly("/v1/jobs/42/pause");
    Cli.Result r = cli.run("pause");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("pause needs a job id");
  }

  @Test
  void aRefusedActionNamesTheJob() {
    fake.on("POST", "/v1/jobs/42/release", 409, "{\"error\":\"job 42 is not held\"}");
    Cli.Result r = cli.run("scontrol", "release", "42");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scontrol: error: Job 42: job 42 is not held\n");
  }

  @Test
  void unknownCommandsAreUsageErrors() {
    Cli.Result r = cli.run("scontrol", "reboot", "node-1");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("scontrol: error: Invalid command: reboot");
    assertThat(cli.run("scontrol", "hold").err()).startsWith("scontrol: error: hold needs a job id");
    assertThat(fake.requests()).isEmpty();
  }

  @Test
  void pingSaysWhetherEachControllerIsUpByItsPlaceInTheList() throws Exception {
    fake.on("GET", "/ha", 200, "{\"status\":\"UP\",\"role\":\"standby\",\"leader\":null}");
    int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    String down = "http://127.0.0.1:" + closed;
    cli.env("SQUALL_URL", fake.url() + "," + down);
    Cli.Result r = cli.run("scontrol", "ping");
    assertThat(r.out()).isEqualTo("Slurmctld(primary) at " + fake.url() + " is UP\n"
        + "Slurmctld(backup) at " + down + " is DOWN\n");
    assertThat(r.exit()).as("one is up").isZero();
    assertThat(fake.last().header("Authorization")).as("open, like /health").isNull();
    cli.env("USER", "root");
    assertThat(cli.run("scontrol", "ping").out()).endsWith("** RESTORE SLURMCTLD DAEMON TO SERVICE **\n"
        + "*****************************************\n");
    cli.env("SQUALL_URL", down);
    r = cli.run("scontrol", "ping");
    assertThat(r.out()).isEqualTo("Slurmctld(primary) at " + down + " is DOWN\n"
        + "*****************************************\n** RESTORE SLURMCTLD DAEMON TO SERVICE **\n"
        + "*****************************************\n");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void writeBatchScriptPutsTheJobsScriptInAFileOrOnStandardOutput(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    fake.on("GET", "/v1/jobs/42", 200, "{\"job_id\":\"42\",\"batch\":true,\"script\":\"#!/bin/bash\\nsrun hostname\\n\"}");
    fake.on("GET", "/v1/jobs/43", 200, "{\"job_id\":\"43\",\"batch\":false,\"script\":\"#!/bin/sh\\n\"}");
    fake.on("GET", "/v1/jobs/99", 404, "{\"error\":\"no such job 99\"}");
    cli.cwd(dir);
    Cli.Result r = cli.run("scontrol", "write", "batch_script", "42");
    assertThat(r.out()).isEqualTo("batch script for job 42 written to slurm-42.sh\n");
    assertThat(java.nio.file.Files.readString(dir.resolve("slurm-42.sh"))).isEqualTo("#!/bin/bash\nsrun hostname\n");
    assertThat(cli.run("scontrol", "write", "batch_script", "42", "-").out()).isEqualTo("#!/bin/bash\nsrun hostname\n");
    cli.run("scontrol", "write", "batch_script", "42", "mine.sh");
    assertThat(dir.resolve("mine.sh")).exists();
    r = cli.run("scontrol", "write", "batch_script", "99");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("job script retrieval failed: Invalid job id specified\n");
    assertThat(dir.resolve("slurm-99.sh")).doesNotExist();
    r = cli.run("scontrol", "write", "batch_script", "43");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("interactive allocation");
  }
}
