package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SinfoCommandTest {
  static final String PARTITIONS = """
      {"partitions":[
        {"name":"gpu","default":true,"nodes":"node-[1-4]","total_nodes":4,"nodes_by_state":{"IDLE":2},
         "total_gpus":32,"max_time_minutes":1440,"default_time_minutes":60,"max_nodes":null,"priority_tier":1,
         "state":"UP"},
        {"name":"interactive","default":false,"nodes":"node-[4-5]","total_nodes":2,"total_gpus":16,
         "max_time_minutes":null,"state":"UP"},
        {"name":"empty","default":false,"nodes":"","total_nodes":0,"max_time_minutes":30,"state":"DOWN"}
      ]}""";
  static final String NODES = """
      {"nodes":[
        {"name":"node-1","state":"IDLE","partitions":["gpu"],"gpus":8,"gpus_allocated":0,"gpu_type":"h100",
         "cpus":96,"memory_mb":1000000,"features":["h100","ib"],"placement_group":"pg0","jobs":[]},
        {"name":"node-2","state":"MIXED","partitions":["gpu"],"gpus":8,"gpus_allocated":2,"gpu_type":"h100",
         "cpus":96,"memory_mb":1000000,"jobs":["42"]},
        {"name":"node-3","state":"IDLE","partitions":["gpu"],"gpus":8,"gpu_type":"h100","cpus":96,"memory_mb":1000000},
        {"name":"node-4","state":"ALLOCATED","partitions":["gpu","interactive"],"gpus":8,"gpu_type":"h100","cpus":96,
         "memory_mb":1000000},
        {"name":"node-5","state":"CLOUD","partitions":["interactive"],"gpus":8,"gpu_type":null,"cpus":48,
         "memory_mb":500000}
      ]}""";

  private final FakeSquall fake = FakeSquall.start().on("GET", "/v1/partitions", 200, PARTITIONS)
      .on("GET", "/v1/nodes", 200, NODES);
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void defaultGroupsEachPartitionsNodesByState() {
    Cli.Result r = cli.run("sinfo");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("""
        PARTITION   AVAIL  TIMELIMIT  NODES  STATE NODELIST
        gpu*           up 1-00:00:00      2   idle node-[1,3]
        gpu*           up 1-00:00:00      1    mix node-2
        gpu*           up 1-00:00:00      1  alloc node-4
        interactive    up   infinite      1  alloc node-4
        interactive    up   infinite      1  idle~ node-5
        empty        down      30:00      0    n/a
        """);
    assertThat(fake.requests()).extracting(FakeSquall.Request::path).containsExactly("/v1/partitions", "/v1/nodes");
    assertThat(fake.last().header("Authorization")).isEqualTo("Bearer " + Cli.TOKEN);
  }

  @Test
  void nodeOrientedListsEachNodeInEachPartition() {
    Cli.Result r = cli.run("sinfo", "-N", "-p", "interactive");
    assertThat(r.out()).isEqualTo("""
        NODELIST  NODES PARTITION   STATE
        node-4        1 interactive alloc
        node-5        1 interactive idle~
        """);
  }

  @Test
  void formatSpecifiersSplitGroupsByWhatTheyShow() {
    Cli.Result r = cli.run("sinfo", "-h", "-p", "gpu,interactive", "-o", "%P %a %l %D %T %N %G %c %m");
    assertThat(r.out()).isEqualTo("""
        gpu* up 1-00:00:00 2 idle node-[1,3] gpu:h100:8 96 1000000
        gpu* up 1-00:00:00 1 mixed node-2 gpu:h100:8 96 1000000
        gpu* up 1-00:00:00 1 allocated node-4 gpu:h100:8 96 1000000
        interactive up infinite 1 allocated node-4 gpu:h100:8 96 1000000
        interactive up infinite 1 idle~ node-5 gpu:8 48 500000
        """);
  }

  @Test
  void serviceErrorsAreReported() {
    fake.on("GET", "/v1/partitions", 403, "{\"error\":\"operators only\"}");
    Cli.Result r = cli.run("sinfo");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("sinfo: error: operators only\n");
  }

  @Test
  void aDrainedNodeIsDrainAndOneWithJobsLeftIsDraining() {
    fake.on("GET", "/v1/nodes", 200, """
        {"nodes":[
          {"name":"node-1","state":"DRAINING","reason":"bad disk","partitions":["gpu"],"gpus":8,"gpus_allocated":0},
          {"name":"node-2","state":"DRAINING","reason":"bad disk","partitions":["gpu"],"gpus":8,"gpus_allocated":4}
        ]}""");
    assertThat(cli.run("sinfo", "-h", "-N", "-o", "%N %t %T %E").out().lines())
        .containsExactly("node-1 drain drained bad disk", "node-2 drng draining bad disk");
  }
}
