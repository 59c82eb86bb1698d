package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** sshare's columns, widths, tree indentation and options, against a fake service. */
class SshareCommandTest {
  private static final String FAIR_TREE = """
      {"algorithm":"fair-tree","as_of":"2026-11-21T08:00:00Z","shares":[
        {"account":"root","user":null,"depth":0,"raw_shares":null,"norm_shares":0.0,"raw_usage":43200.75,
         "norm_usage":1.0,"effective_usage":1.0,"level_fs":null,"fair_share":null},
        {"account":"ml","user":null,"depth":1,"raw_shares":2,"norm_shares":0.666667,"raw_usage":28800.0,
         "norm_usage":0.666667,"effective_usage":0.666667,"level_fs":1.0,"fair_share":null},
        {"account":"ml","user":"alice","depth":2,"raw_shares":1,"norm_shares":1.0,"raw_usage":28800.0,
         "norm_usage":0.666667,"effective_usage":1.0,"level_fs":1.0,"fair_share":0.5},
        {"account":"research-computing-long","user":null,"depth":1,"raw_shares":1,"norm_shares":0.333333,
         "raw_usage":14400.75,"norm_usage":0.333333,"effective_usage":0.333333,"level_fs":1.0,"fair_share":null},
        {"account":"research-computing-long","user":"bob","depth":2,"raw_shares":1,"norm_shares":0.5,
         "raw_usage":0.0,"norm_usage":0.0,"effective_usage":0.0,"level_fs":"inf","fair_share":1.0}
      ]}""";

  private final FakeSquall fake = FakeSquall.start().on("GET", "/v1/shares", 200, FAIR_TREE);
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  /**
   * sshare's default columns; an account wider than its 20 characters keeps 19 and a {@code +};
   * the service picks the caller's own associations when no user is named.
   */
  @Test
  void defaultColumnsWithSlurmsWidthsAndTheTreeIndented() {
    Cli.Result r = cli.run("sshare");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("""
        Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  FairShare
        -------------------- ---------- ---------- ----------- ----------- ------------- ----------
        root                                          0.000000       43200      1.000000
         ml                                      2    0.666667       28800      0.666667
          ml                      alice          1    1.000000       28800      1.000000   0.500000
         research-computing+                     1    0.333333       14400      0.333333
          research-computin+        bob          1    0.500000           0      0.000000   1.000000
        """);
    assertThat(fake.last().query()).isEmpty();
  }

  /** -l adds NormUsage and, under Fair Tree, LevelFS ("inf" for an association without usage). */
  @Test
  void longAddsNormUsageAndLevelFs() {
    Cli.Result r = cli.run("sshare", "-l", "-U", "-P");
    assertThat(r.out()).isEqualTo("""
        Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS
          ml|alice|1|1.000000|28800|0.666667|1.000000|0.500000|1.000000
          research-computing-long|bob|1|0.500000|0|0.000000|0.000000|1.000000|inf
        """);
  }

  @Test
  void classicHasNoLevelFsAndAccountsHaveAFactor() {
    fake.on("GET", "/v1/shares", 200, """
        {"algorithm":"classic","shares":[
          {"account":"ml","user":null,"depth":1,"raw_shares":1,"norm_shares":1.0,"raw_usage":10.0,"norm_usage":1.0,
           "effective_usage":1.0,"level_fs":null,"fair_share":0.5}]}""");
    Cli.Result r = cli.run("sshare", "--long", "--parsable", "--noheader");
    assertThat(r.out()).isEqualTo(" ml||1|1.000000|10|1.000000|1.000000|0.500000|\n");
  }

  @Test
  void usersAccountsAndAllAreAskedOfTheService() {
    cli.run("sshare", "-a", "-A", "ml,research");
    assertThat(fake.last().query()).isEqualTo(Map.of("all", "true", "accounts", "ml,research"));
    cli.run("sshare", "-u", "alice", "--users=bob");
    assertThat(fake.last().query()).isEqualTo(Map.of("users", "alice,bob"));
    cli.run("sshare", "-u", "-1");
    assertThat(fake.last().query()).isEqualTo(Map.of("all", "true"));
    Cli.Result h = cli.run("sshare", "-h", "-U");
    assertThat(h.out()).startsWith("  ml                      alice");
  }

  @Test
  void anOperandIsRefused() {
    Cli.Result r = cli.run("sshare", "alice");
    assertThat(r.exit()).isNotZero();
    assertThat(r.err()).contains("Unrecognized option: alice");
  }
}
