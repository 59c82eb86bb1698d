package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Advanced reservations through the API: operators create and delete them, bad requests are 400s
 * in Slurm's words, jobs that name one run in it and others stay off its nodes, a reservation
 * survives a restart and is purged after its end. On H2 and on PostgreSQL (skipped without one).
 */
class ReservationsApiTest {
  private static final String WHOLE_NODE = "#!/bin/bash\n#SBATCH --gres=gpu:8 --time=30 --output=/dev/null\nsleep 600\n";

  @TempDir
  Path dir;
  private FakeAgent agent;

  @BeforeEach
  void fakeAgent() {
    agent = new FakeAgent();
  }

  @AfterEach
  void stopAgent() {
    agent.close();
  }

  private Map<String, Object> settings(String jdbcUrl) {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), jdbcUrl, "none");
    s.put("squall.partitions.gpu.nodes", "node-1,node-2");
    s.put("squall.ticks", "manual");
    return s;
  }

  private void register(Http h, String node) {
    agent.register(h, node);
  }

  private static Http.Answer create(Http h, String token, Map<String, Object> body) {
    return h.post(token, "/v1/reservations", body);
  }

  @Test
  void onH2() {
    reservations(null);
  }

  @Test
  void onPostgres() throws SQLException {
    reservations(Controllers.emptyPostgres());
  }

  private void reservations(String jdbcUrl) {
    try (Controllers.Running c = Controllers.start(settings(jdbcUrl))) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      register(h, "node-1");
      register(h, "node-2");
      Map<String, Object> team = Map.of("name", "team", "start_time", "now", "duration", "60", "nodes", "node-1",
          "users", List.of("alice"));

      // Operators only; every bad request says what was wrong.
      assertThat(create(h, "alice-token", team).status()).isEqualTo(403);
      assertThat(create(h, "admin-token", Map.of("name", "x", "duration", "60", "nodes", "node-9", "users",
          List.of("alice"))).error()).isEqualTo("Invalid node name specified (node-9)");
      assertThat(create(h, "admin-token", Map.of("name", "x", "nodes", "node-1", "users", List.of("alice"))).error())
          .isEqualTo("Duration or EndTime must be specified. No reservation created.");
      assertThat(create(h, "admin-token", Map.of("name", "x", "duration", "60", "node_count", 3, "users",
          List.of("alice"))).error()).startsWith("Requested node configuration is not available");
      assertThat(create(h, "admin-token", Map.of("name", "x", "duration", "60", "nodes", "node-1")).error())
          .isEqualTo("Either Users or Accounts must be specified. No reservation created.");
      assertThat(create(h, "admin-token", Map.of("name", "x", "duration", "soon", "nodes", "node-1", "users",
          List.of("alice"))).status()).isEqualTo(400);
      assertThat(create(h, "admin-token", Map.of("name", "x", "duration", "60", "nodes", "node-1", "users",
          List.of("alice"), "flags", List.of("DAILY"))).error()).startsWith("flags: 'DAILY' is not a flag");
      assertThat(create(h, "admin-token", Map.of("name", "x y", "duration", "60", "nodes", "node-1", "users",
          List.of("alice"))).status()).isEqualTo(400);
      assertThat(create(h, "admin-token", Map.of("name", "x", "start_time", "whenever", "duration", "60", "nodes",
          "node-1", "users", List.of("alice"))).error()).startsWith("start_time: Invalid time specified");

      Http.Answer made = create(h, "admin-token", team);
      assertThat(made.status()).isEqualTo(201);
      assertThat(made.json().get("nodes").asText()).isEqualTo("node-1");
      assertThat(made.json().get("state").asText()).isEqualTo("ACTIVE");
      assertThat(made.json().get("duration_seconds").asLong()).isEqualTo(3600);
      assertThat(made.json().get("flags").toString()).isEqualTo("[\"SPEC_NODES\"]");
      assertThat(create(h, "admin-token", Map.of("name", "other", "duration", "60", "nodes", "node-1", "users",
          List.of("bob"))).error()).startsWith("Requested reservation overlaps with another reservation (team holds node-1");
      assertThat(create(h, "admin-token", team).error()).startsWith("Duplicate reservation name");
      assertThat(h.get("bob-token", "/v1/reservations").json().get("reservations").findValuesAsText("name"))
          .containsExactly("team");
      assertThat(h.get("bob-token", "/v1/reservations/nope").status()).isEqualTo(404);

      // Submitting: an unknown reservation is invalid, one for others is denied.
      Http.Answer unknown = h.post("alice-token", "/v1/jobs", Map.of("script", WHOLE_NODE, "argv",
          List.of("--reservation=nope")));
      assertThat(unknown.status()).isEqualTo(400);
      assertThat(unknown.error()).startsWith("--reservation=nope: Requested reservation is invalid");
      Http.Answer denied = h.post("bob-token", "/v1/jobs", Map.of("script", WHOLE_NODE, "argv",
          List.of("--reservation=team")));
      assertThat(denied.status()).isEqualTo(403);
      assertThat(denied.error()).startsWith("--reservation=team: Access denied to requested reservation");

      // Others stay off node-1: the first whole-node job takes node-2, the second waits.
      long outside = h.submit(WHOLE_NODE);
      long waits = h.submit(WHOLE_NODE);
      long inside = h.submit(Map.of("script", WHOLE_NODE, "argv", List.of("--reservation=team")));
      time.tick();
      assertThat(h.job(outside).get("nodes").asText()).isEqualTo("node-2");
      assertThat(h.jobState(waits)).isEqualTo("PENDING");
      assertThat(h.job(waits).get("reason").asText()).isEqualTo("Resources");
      assertThat(h.job(inside).get("nodes").asText()).isEqualTo("node-1");
      assertThat(h.job(inside).get("reservation").asText()).isEqualTo("team");

      // A reservation a job runs in cannot be deleted; one without jobs can.
      Http.Answer busy = h.delete("admin-token", "/v1/reservations/team");
      assertThat(busy.status()).isEqualTo(409);
      assertThat(busy.error()).startsWith("Requested reservation is in use");
      assertThat(h.delete("alice-token", "/v1/reservations/team").status()).isEqualTo(403);
      assertThat(create(h, "admin-token", Map.of("name", "later", "start_time", "now+2hours", "duration", "1:00:00",
          "node_count", 1, "accounts", List.of("research"), "flags", List.of("maint"))).status()).isEqualTo(201);
      assertThat(h.get("bob-token", "/v1/reservations/later").json().get("state").asText()).isEqualTo("INACTIVE");
    }
    // Durable: a restarted controller has them.
    try (Controllers.Running c = Controllers.start(settings(jdbcUrl))) {
      Http h = new Http(c.url());
      assertThat(h.get("bob-token", "/v1/reservations").json().get("reservations").findValuesAsText("name"))
          .containsExactly("later", "team");
      assertThat(h.get("bob-token", "/v1/reservations/later").json().get("flags").toString())
          .isEqualTo("[\"MAINT\"]");
      assertThat(h.delete("admin-token", "/v1/reservations/later").status()).isEqualTo(200);
      assertThat(h.delete("admin-token", "/v1/reservations/later").status()).isEqualTo(404);
    }
  }

  @Test
  void anEndedReservationIsPurged() {
    try (Controllers.Running c = Controllers.start(settings(null))) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      register(h, "node-1");
      assertThat(create(h, "admin-token", Map.of("name", "short", "duration", "10", "nodes", "node-1", "users",
          List.of("alice"))).status()).isEqualTo(201);
      time.tickAfter(Duration.ofMinutes(9));
      assertThat(h.get("bob-token", "/v1/reservations").json().get("reservations")).hasSize(1);
      time.tickAfter(Duration.ofMinutes(1));
      assertThat(h.get("bob-token", "/v1/reservations").json().get("reservations")).isEmpty();
    }
  }

  @Test
  void aWaitingJobChangesReservationAndIsHeldWhenItsReservationGoesOnH2() {
    jobsFollowTheirReservation(null);
  }

  @Test
  void aWaitingJobChangesReservationAndIsHeldWhenItsReservationGoesOnPostgres() throws SQLException {
    jobsFollowTheirReservation(Controllers.emptyPostgres());
  }

  private void jobsFollowTheirReservation(String jdbcUrl) {
    long moved;
    long orphan;
    try (Controllers.Running c = Controllers.start(settings(jdbcUrl))) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      register(h, "node-1");
      assertThat(create(h, "admin-token", Map.of("name", "a", "start_time", "now+1hour", "duration", "60", "nodes",
          "node-1", "users", List.of("alice"))).status()).isEqualTo(201);
      assertThat(create(h, "admin-token", Map.of("name", "b", "start_time", "now+3hours", "duration", "60", "nodes",
          "node-1", "users", List.of("bob"))).status()).isEqualTo(201);
      moved = h.submit(Map.of("script", WHOLE_NODE, "argv", List.of("--reservation=a")));
      orphan = h.submit(Map.of("script", WHOLE_NODE, "argv", List.of("--reservation=a")));
      time.tick();
      assertThat(h.job(moved).get("reason").asText()).isEqualTo("Reservation");

      // scontrol update job ReservationName=: checked as at submission; empty takes it out.
      assertThat(h.post("alice-token", "/v1/jobs/" + moved + "/update", Map.of("reservation", "nope")).error())
          .startsWith("--reservation=nope: Requested reservation is invalid");
      assertThat(h.post("alice-token", "/v1/jobs/" + moved + "/update", Map.of("reservation", "b")).status())
          .isEqualTo(403);
      assertThat(h.post("alice-token", "/v1/jobs/" + moved + "/update", Map.of("reservation", "")).status())
          .isEqualTo(200);
      time.tick(); // 30 minutes end before "a" opens: it starts now
      assertThat(h.jobState(moved)).isIn("RUNNING", "CONFIGURING");
      assertThat(h.job(moved).get("reservation").isNull()).isTrue();

      // Deleting "a" holds its waiting job without it, as Slurm does.
      assertThat(h.delete("admin-token", "/v1/reservations/a").status()).isEqualTo(200);
      assertThat(h.job(orphan).get("held").asBoolean()).isTrue();
      assertThat(h.job(orphan).get("reservation").isNull()).isTrue();
      assertThat(h.job(orphan).get("events").findValuesAsText("reason"))
          .contains("held: its reservation a was deleted by admin (scontrol release runs it outside any reservation)");
    }
    // The cleared reservation is the job's after a restart too.
    try (Controllers.Running c = Controllers.start(settings(jdbcUrl))) {
      Http h = new Http(c.url());
      assertThat(h.job(orphan).get("reservation").isNull()).isTrue();
      assertThat(h.job(orphan).get("held").asBoolean()).isTrue();
      assertThat(h.job(moved).get("reservation").isNull()).isTrue();
    }
  }
}
