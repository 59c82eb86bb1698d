package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import java.time.Duration;
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

  @Test
  void longAddsJobSizeOverSubscriptionGroupsAndReservations() {
    fake.on("GET", "/v1/reservations", 200, """
        {"reservations":[{"name":"maint","nodes":"node-3","state":"ACTIVE"},
                         {"name":"later","nodes":"node-1","state":"INACTIVE"}]}""");
    Cli.Result r = cli.run("sinfo", "-l", "-p", "gpu");
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).isEqualTo("""
        Sat Nov 21 12:00:00 2026
        PARTITION AVAIL  TIMELIMIT   JOB_SIZE ROOT OVERSUBS     GROUPS  NODES       STATE RESERVATION NODELIST
        gpu*         up 1-00:00:00 1-infinite   no       NO        all      1        idle             node-1
        gpu*         up 1-00:00:00 1-infinite   no       NO        all      1       mixed             node-2
        gpu*         up 1-00:00:00 1-infinite   no       NO        all      1        idle       maint node-3
        gpu*         up 1-00:00:00 1-infinite   no       NO        all      1   allocated             node-4
        """);
  }

  @Test
  void longNodesShowSocketsCoresThreadsAndReasons() {
    Cli.Result r = cli.run("sinfo", "-N", "-l", "-n", "node-[4-5]");
    assertThat(r.out()).isEqualTo("""
        Sat Nov 21 12:00:00 2026
        NODELIST  NODES PARTITION         STATE CPUS    S:C:T MEMORY TMP_DISK WEIGHT AVAIL_FE REASON
        node-4        1 gpu*          allocated   96   96:1:1 100000        0      1   (null) none
        node-4        1 interactive   allocated   96   96:1:1 100000        0      1   (null) none
        node-5        1 interactive       idle~   48   48:1:1 500000        0      1   (null) none
        """);
  }

  @Test
  void summarizeCountsEachPartitionsNodesAllocatedIdleOtherAndTotal() {
    Cli.Result r = cli.run("sinfo", "-s");
    assertThat(r.out()).isEqualTo("""
        PARTITION   AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST
        gpu*           up 1-00:00:00          2/2/0/4 node-[1-4]
        interactive    up   infinite          1/1/0/2 node-[4-5]
        empty        down      30:00          0/0/0/0
        """);
  }

  @Test
  void listReasonsShowsDownAndDrainedNodesWithWhoSaidSoAndWhen() {
    fake.on("GET", "/v1/nodes", 200, """
        {"nodes":[
          {"name":"node-1","state":"DRAINING","reason":"bad disk","reason_user":"root",
           "reason_time":"2026-11-20T08:30:00Z","partitions":["gpu"],"gpus":8,"gpus_allocated":0},
          {"name":"node-2","state":"DRAINING","reason":"bad disk","reason_user":"root",
           "reason_time":"2026-11-20T08:30:00Z","partitions":["gpu"],"gpus":8,"gpus_allocated":4},
          {"name":"node-3","state":"DOWN","reason":"not responding","reason_user":"squall",
           "reason_time":"2026-11-21T11:58:00Z","partitions":["gpu","interactive"],"gpus":8},
          {"name":"node-4","state":"IDLE","partitions":["gpu"],"gpus":8},
          {"name":"node-5","state":"DOWN","reason":"old","partitions":["interactive"],"gpus":8}
        ]}""");
    assertThat(cli.run("sinfo", "-R").out()).isEqualTo("""
        REASON               USER      TIMESTAMP           NODELIST
        bad disk             root      2026-11-20T08:30:00 node-[1-2]
        not responding       squall    2026-11-21T11:58:00 node-3
        old                  Unknown   Unknown             node-5
        """);
    assertThat(cli.run("sinfo", "-R", "-l", "-t", "drain").out()).isEqualTo("""
        Sat Nov 21 12:00:00 2026
        REASON               USER         TIMESTAMP           STATE  NODELIST
        bad disk             root         2026-11-20T08:30:00 drain  node-1
        bad disk             root         2026-11-20T08:30:00 drng   node-2
        """);
  }

  @Test
  void statesAreReadAsSinfoReadsThemAndFilterTheNodes() {
    assertThat(cli.run("sinfo", "-h", "-t", "idle", "-o", "%P %t %N").out()).isEqualTo("""
        gpu* idle node-[1,3]
        interactive idle~ node-5
        """);
    // "al" is allocated, "MIX" mixed: a prefix of a long or compact name, in any case.
    assertThat(cli.run("sinfo", "-h", "-t", "al,MIX", "-o", "%P %t %N").out()).isEqualTo("""
        gpu* mix node-2
        gpu* alloc node-4
        interactive alloc node-4
        """);
    assertThat(cli.run("sinfo", "-h", "-t", "cloud", "-N").out()).isEqualTo("node-5        1 interactive idle~\n");
    Cli.Result bad = cli.run("sinfo", "-t", "sleepy");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).startsWith("sinfo: error: Bad state string: \"sleepy\" (valid states: unknown,down,idle,");
  }

  @Test
  void nodesDeadAndRespondingNarrowTheList() {
    fake.on("GET", "/v1/nodes", 200, """
        {"nodes":[
          {"name":"node-1","state":"DOWN","partitions":["gpu"],"gpus":8},
          {"name":"node-2","state":"IDLE","partitions":["gpu"],"gpus":8},
          {"name":"node-3","state":"IDLE","partitions":["gpu"],"gpus":8}
        ]}""");
    assertThat(cli.run("sinfo", "-h", "-d").out()).isEqualTo("gpu*         up 1-00:00:00      1   down node-1\n");
    assertThat(cli.run("sinfo", "-h", "-r").out()).isEqualTo("gpu*         up 1-00:00:00      2   idle node-[2-3]\n");
    assertThat(cli.run("sinfo", "-h", "-n", "node-[2-9]", "-o", "%N").out()).isEqualTo("node-[2-3]\n");
    Cli.Result bad = cli.run("sinfo", "-n", "node-[2-");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).isEqualTo("sinfo: error: 'node-[2-' invalid entry for --nodes\n");
  }

  @Test
  void aFormatWithoutPartitionFieldsListsEachNodeOnce() {
    // node-4 is in two partitions: sinfo merges the lines when nothing printed tells them apart.
    assertThat(cli.run("sinfo", "-h", "-o", "%t %D %N").out()).isEqualTo("""
        idle 2 node-[1,3]
        mix 1 node-2
        alloc 1 node-4
        idle~ 1 node-5
        """);
  }

  @Test
  void sortOrdersLinesByTheFieldsGiven() {
    assertThat(cli.run("sinfo", "-h", "-N", "-S", "-P,N", "-o", "%P %N").out()).isEqualTo("""
        interactive node-4
        interactive node-5
        gpu* node-1
        gpu* node-2
        gpu* node-3
        gpu* node-4
        """);
    Cli.Result bad = cli.run("sinfo", "-S", "Q");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).isEqualTo("sinfo: error: Invalid sort specification: Q\n");
  }

  @Test
  void iteratePrintsTheTimeAndTheListEveryPeriodUntilStopped() {
    Cli.Result r = cli.interruptPause(2).run("sinfo", "-i", "5", "-p", "interactive");
    assertThat(cli.pauses()).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(5));
    String round = """
        Sat Nov 21 12:00:00 2026
        PARTITION   AVAIL  TIMELIMIT  NODES  STATE NODELIST
        interactive    up   infinite      1  alloc node-4
        interactive    up   infinite      1  idle~ node-5

        """;
    assertThat(r.out()).isEqualTo(round + round);
    assertThat(r.exit()).isZero();
    assertThat(cli.run("sinfo", "-i", "0").err()).isEqualTo("sinfo: error: Error: invalid entry for --iterate=0\n");
  }

  @Test
  void sinfoFormatFromTheEnvironmentUnlessAnOptionPicksOne() {
    cli.env("SINFO_FORMAT", "%P:%D:%t");
    assertThat(cli.run("sinfo", "-h", "-p", "gpu").out()).isEqualTo("gpu*:2:idle\ngpu*:1:mix\ngpu*:1:alloc\n");
    assertThat(cli.run("sinfo", "-h", "-s", "-p", "gpu").out())
        .isEqualTo("gpu*         up 1-00:00:00          2/2/0/4 node-[1-4]\n");
  }
}
