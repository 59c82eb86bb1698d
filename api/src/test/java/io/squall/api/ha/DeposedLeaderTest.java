package io.squall.api.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.Controllers;
import io.squall.api.Poll;
import io.squall.api.bench.ChaosBench;
import io.squall.api.bench.ControllerSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real HA controller (its own JVM, on the PostgreSQL .ci/run starts; skipped without
 * SQUALL_TEST_PG_URL) whose lease another controller takes: its next write is refused by the
 * database, so its caller gets 503 and nothing is stored, and it stops with status 75 at its next
 * renewal. This is the service's own connections carrying their term, not only the trigger.
 */
class DeposedLeaderTest {
  private static final String TOKEN = "deposed-user-token";
  @TempDir
  Path dir;
  private Process controller;
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() throws InterruptedException {
    if (controller != null) {
      controller.destroyForcibly().waitFor();
    }
  }

  @Test
  void aDeposedLeadersWritesAreRefusedAndItStops() throws Exception {
    String pg = Controllers.emptyPostgres();
    int port = ChaosBench.restartablePort();
    String url = "http://127.0.0.1:" + port;
    // A long renewal interval: the refused write is seen before the controller notices and stops.
    controller = ControllerSettings.of(port, dir.resolve("data"), "none").postgres(pg).highlyAvailable(url)
        .with("squall.users.alice.token", TOKEN)
        .with("squall.ha.lease-ttl", "20s")
        .with("squall.ha.renew-interval", "10s")
        .startJvm(dir.resolve("deposed.yml"), List.of(), null, dir.resolve("controller.log"));
    Poll.until("the controller to lead", Duration.ofMinutes(2), () -> get(url + "/ha").contains("\"role\":\"leader\""));
    assertThat(submit(url).statusCode()).isEqualTo(201);

    // Depose it right after a renewal, so that its next one (which would find the lease taken and
    // stop it at once) is a whole renew interval away from the write below, however slow the machine.
    String renewed = lease(pg);
    Poll.until("the leader to renew its lease", Duration.ofMinutes(1), () -> !lease(pg).equals(renewed));
    sql(pg, "UPDATE controller_lease SET term = term + 1, holder = 'another controller'");
    HttpResponse<String> refused = submit(url);
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.body()).contains("nothing was changed");
    assertThat(count(pg, "SELECT count(*) FROM jobs")).as("only the first submission is stored").isEqualTo(1);
    assertThat(Files.readString(dir.resolve("controller.log")))
        .contains("write refused: this controller leads at term 1, but the lease is at term 2");

    assertThat(controller.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(controller.exitValue()).isEqualTo(LeaseKeeper.EXIT_LOST_LEASE);
  }

  private HttpResponse<String> submit(String url) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(url + "/v1/jobs"))
        .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"script\":\"#!/bin/bash\\ntrue\\n\",\"submit_dir\":\"/tmp\"}"))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  private String get(String url) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /** The lease's expiry as text: it changes at each renewal. */
  private static String lease(String pg) {
    try (Connection c = DriverManager.getConnection(pg); Statement s = c.createStatement();
        var r = s.executeQuery("SELECT expires_at::text FROM controller_lease")) {
      r.next();
      return r.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void sql(String pg, String statement) throws SQLException {
    try (Connection c = DriverManager.getConnection(pg); Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private static long count(String pg, String query) throws SQLException {
    try (Connection c = DriverManager.getConnection(pg); Statement s = c.createStatement();
        var r = s.executeQuery(query)) {
      r.next();
      return r.getLong(1);
    }
  }
}
