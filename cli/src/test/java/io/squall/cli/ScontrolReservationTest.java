package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.cli.fake.FakeSquall;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** scontrol create/show/delete reservation as scontrol(1) writes and prints them. */
class ScontrolReservationTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TEAM = "{\"name\":\"team\",\"start_time\":\"2026-11-21T10:00:00Z\","
      + "\"end_time\":\"2026-11-21T12:00:00Z\",\"duration_seconds\":7200,\"nodes\":\"node-[1-2]\",\"node_count\":2,"
      + "\"partition\":\"gpu\",\"users\":[\"alice\",\"bob\"],\"accounts\":[],\"flags\":[\"MAINT\",\"SPEC_NODES\"],"
      + "\"state\":\"ACTIVE\"}";
  private static final String LATER = "{\"name\":\"later\",\"start_time\":\"2026-11-22T10:00:00Z\","
      + "\"end_time\":\"2026-11-23T10:00:00Z\",\"duration_seconds\":86400,\"nodes\":\"node-3\",\"node_count\":1,"
      + "\"partition\":null,\"users\":[],\"accounts\":[\"ml\"],\"flags\":[],\"state\":\"INACTIVE\"}";

  private final FakeSquall fake = FakeSquall.start();
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void createSendsSlurmsKeysInAnyCaseAndSaysWhatWasCreated() throws IOException {
    fake.on("POST", "/v1/reservations", 201, TEAM);
    Cli.Result r = cli.run("scontrol", "create", "reservation", "ReservationName=team", "starttime=now+1hour",
        "Duration=2:00:00", "Nodes=node-[1-2]", "users=alice,bob", "Flags=MAINT,ignore_jobs");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("Reservation created: team\n");
    assertThat(JSON.readValue(fake.last().body(), Map.class)).isEqualTo(Map.of("name", "team", "start_time",
        "now+1hour", "duration", "2:00:00", "nodes", "node-[1-2]", "users", List.of("alice", "bob"), "flags",
        List.of("MAINT", "ignore_jobs")));
    cli.run("scontrol", "create", "res", "StartTime=2026-12-01T08:00", "EndTime=2026-12-01T10:00", "NodeCnt=2",
        "PartitionName=gpu", "Accounts=ml");
    assertThat(JSON.readValue(fake.last().body(), Map.class)).isEqualTo(Map.of("start_time", "2026-12-01T08:00",
        "end_time", "2026-12-01T10:00", "node_count", 2, "partition", "gpu", "accounts", List.of("ml")));
  }

  @Test
  void theServicesRefusalIsScontrolsError() {
    fake.on("POST", "/v1/reservations", 400, "{\"error\":\"Requested reservation overlaps with another reservation\"}");
    Cli.Result r = cli.run("scontrol", "create", "reservation", "Duration=60", "Nodes=node-1", "Users=alice");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo(
        "scontrol: error: Error creating the reservation: Requested reservation overlaps with another reservation\n");
  }

  @Test
  void whatScontrolCannotSendNeverReachesTheService() {
    assertThat(cli.run("scontrol", "create", "reservation", "CoreCnt=2", "Users=alice").err())
        .startsWith("scontrol: error: CoreCnt is not supported");
    assertThat(cli.run("scontrol", "create", "reservation", "Bogus=1").err())
        .startsWith("scontrol: error: Invalid input: Bogus=1");
    assertThat(cli.run("scontrol", "create", "reservation", "NodeCnt=two").err())
        .startsWith("scontrol: error: Invalid node count specified: NodeCnt=two");
    assertThat(cli.run("scontrol", "create", "partition", "Name=x").err())
        .startsWith("scontrol: error: Invalid creation entity");
    assertThat(fake.requests()).isEmpty();
  }

  @Test
  void showPrintsSlurmsRecords() {
    fake.on("GET", "/v1/reservations", 200, "{\"reservations\":[" + LATER + "," + TEAM + "]}");
    Cli.Result r = cli.run("scontrol", "show", "reservation", "team");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("""
        ReservationName=team StartTime=2026-11-21T10:00:00 EndTime=2026-11-21T12:00:00 Duration=02:00:00
           Nodes=node-[1-2] NodeCnt=2 Features=(null) PartitionName=gpu Flags=MAINT,SPEC_NODES
           Users=alice,bob Groups=(null) Accounts=(null) Licenses=(null) State=ACTIVE BurstBuffer=(null)

        """);
    r = cli.run("scontrol", "-o", "show", "reservations");
    assertThat(r.out()).isEqualTo("ReservationName=later StartTime=2026-11-22T10:00:00 EndTime=2026-11-23T10:00:00"
        + " Duration=1-00:00:00 Nodes=node-3 NodeCnt=1 Features=(null) PartitionName=(null) Flags= Users=(null)"
        + " Groups=(null) Accounts=ml Licenses=(null) State=INACTIVE BurstBuffer=(null)\n"
        + "ReservationName=team StartTime=2026-11-21T10:00:00 EndTime=2026-11-21T12:00:00 Duration=02:00:00"
        + " Nodes=node-[1-2] NodeCnt=2 Features=(null) PartitionName=gpu Flags=MAINT,SPEC_NODES Users=alice,bob"
        + " Groups=(null) Accounts=(null) Licenses=(null) State=ACTIVE BurstBuffer=(null)\n");
    r = cli.run("scontrol", "show", "reservation", "nope");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scontrol: error: Reservation nope not found\n");
  }

  @Test
  void noReservationsIsSaidAsSlurmSaysIt() {
    fake.on("GET", "/v1/reservations", 200, "{\"reservations\":[]}");
    assertThat(cli.run("scontrol", "show", "res").out()).isEqualTo("No reservations in the system\n");
  }

  @Test
  void deleteTakesEitherForm() {
    fake.on("DELETE", "/v1/reservations/team", 200, "{\"name\":\"team\",\"deleted\":true}");
    assertThat(cli.run("scontrol", "delete", "ReservationName=team").exit()).isZero();
    assertThat(fake.last().method() + " " + fake.last().path()).isEqualTo("DELETE /v1/reservations/team");
    assertThat(cli.run("scontrol", "delete", "reservation", "team").exit()).isZero();
    assertThat(fake.requests()).hasSize(2);
  }

  @Test
  void deletingOneInUseSaysSo() {
    fake.on("DELETE", "/v1/reservations/team", 409, "{\"error\":\"Requested reservation is in use\"}");
    Cli.Result r = cli.run("scontrol", "delete", "ReservationName=team");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("scontrol: error: delete_reservation ReservationName=team: Requested reservation is in use\n");
  }

  @Test
  void sinfoListsReservationsAsSinfoTDoes() {
    fake.on("GET", "/v1/reservations", 200, "{\"reservations\":[" + LATER + "," + TEAM + "]}");
    Cli.Result r = cli.run("sinfo", "-T");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("""
        RESV_NAME     STATE           START_TIME             END_TIME     DURATION  NODELIST
        later      INACTIVE  2026-11-22T10:00:00  2026-11-23T10:00:00   1-00:00:00  node-3
        team         ACTIVE  2026-11-21T10:00:00  2026-11-21T12:00:00     02:00:00  node-[1-2]
        """);
  }

  @Test
  void squeueAndScontrolShowAJobsReservation() {
    fake.on("GET", "/v1/jobs", 200, """
        {"jobs":[{"job_id":"42","job_id_raw":42,"state":"PENDING","reservation":"team"},
         {"job_id":"43","job_id_raw":43,"state":"PENDING","reservation":null}]}""");
    assertThat(cli.run("squeue", "-h", "-o", "%i %v").out()).isEqualTo("42 team\n43 (null)\n");
    fake.on("GET", "/v1/jobs/42", 200, """
        {"job_id":"42","job_id_raw":42,"state":"PENDING","partition":"gpu","request":{"reservation":"team"}}""");
    assertThat(cli.run("scontrol", "show", "job", "42").out()).contains("   Partition=gpu\n   Reservation=team\n");
  }

  @Test
  void updateMovesAJobIntoAReservationOrOutOfIt() throws IOException {
    fake.on("POST", "/v1/jobs/42/update", 200, "{\"jobs\":[{\"job_id\":\"42\"}]}");
    assertThat(cli.run("scontrol", "update", "JobId=42", "ReservationName=team").exit()).isZero();
    assertThat(JSON.readValue(fake.last().body(), Map.class)).isEqualTo(Map.of("reservation", "team"));
    assertThat(cli.run("scontrol", "update", "jobid=42", "reservationname=").exit()).isZero();
    assertThat(JSON.readValue(fake.last().body(), Map.class)).isEqualTo(Map.of("reservation", ""));
  }
}
