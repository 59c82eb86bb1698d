package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/shares} picks associations as slurmctld answers sshare: root and the accounts
 * always, the caller's own user associations unless users or all are asked for, only the named
 * accounts' with {@code accounts}. With no usage yet, every user ranks first under Fair Tree.
 */
class SharesApiTest {
  @TempDir
  static Path dir;
  private static Controllers.Running controller;
  private static Http h;

  @BeforeAll
  static void start() {
    controller = Controllers.start(Controllers.settings(dir.resolve("data"), null, "none"));
    h = new Http(controller.url());
  }

  @AfterAll
  static void stop() {
    controller.close();
  }

  @Test
  void theCallersOwnAssociationsUnlessUsersOrAllAreAskedFor() {
    assertThat(rows("alice-token", "")).containsExactly("root", "research", "research/alice");
    assertThat(rows("alice-token", "?users=bob,nobody")).containsExactly("root", "research", "research/bob");
    assertThat(rows("bob-token", "?all=true")).containsExactly("root", "research", "research/admin",
        "research/alice", "research/bob");
    assertThat(rows("bob-token", "?all&accounts=research")).containsExactly("research", "research/admin",
        "research/alice", "research/bob");
    assertThat(rows("bob-token", "?accounts=elsewhere")).isEmpty();
    JsonNode alice = h.get("alice-token", "/v1/shares").json().get("shares").get(2);
    assertThat(alice.get("fair_share").asDouble()).isEqualTo(1.0);
    assertThat(alice.get("level_fs").asText()).isEqualTo("inf");
    assertThat(alice.get("raw_usage").asDouble()).isZero();
    assertThat(alice.get("depth").asInt()).isEqualTo(2);
  }

  @Test
  void aBadAllIsRefusedNamingIt() {
    Http.Answer a = h.get("alice-token", "/v1/shares?all=maybe");
    assertThat(a.status()).isEqualTo(400);
    assertThat(a.error()).isEqualTo("all='maybe': true or false");
  }

  private static List<String> rows(String token, String query) {
    Http.Answer a = h.get(token, "/v1/shares" + query);
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    List<String> out = new ArrayList<>();
    for (JsonNode s : a.json().get("shares")) {
      out.add(s.get("user").isNull() ? s.get("account").asText() : s.get("account").asText() + "/" + s.get("user").asText());
    }
    return out;
  }
}
