package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** sprio with sprio(1)'s default, long, normalized and weights formats. */
class SprioCommandTest {
  private static final String PRIORITIES = """
      {"weights":{"age":1000,"fair_share":10000,"job_size":1000,"partition":1000,"qos":0,"max_age_seconds":604800},
       "jobs":[
        {"job_id":"42","job_id_raw":42,"partition":"gpu","user":"alice","account":"ml","qos":"normal","priority":6125,
         "age":0.5,"fair_share":0.5,"job_size":0.125,"partition_factor":0.5,"qos_factor":0.0,"nice":0,"explicit":false},
        {"job_id":"43_2","job_id_raw":45,"partition":"high","user":"bob","account":"physics","qos":"normal",
         "priority":100,"age":0.0,"fair_share":0.25,"job_size":0.25,"partition_factor":1.0,"qos_factor":0.0,"nice":3000,
         "explicit":false}]}""";

  private final FakeSquall fake = FakeSquall.start().on("GET", "/v1/priorities", 200, PRIORITIES);
  private final Cli cli = new Cli(fake);

  @AfterEach
  void stop() {
    fake.close();
  }

  private static String line(String format, Object... values) {
    return String.format(java.util.Locale.ROOT, format, values).stripTrailing();
  }

  @Test
  void defaultColumnsAreTheFactorsWithAWeight() {
    Cli.Result r = cli.run("sprio");
    assertThat(r.exit()).as(r.err()).isZero();
    String f = "%15s %-9s %10s %10s %10s %10s %10s %10s";
    assertThat(r.out().lines()).containsExactly(
        line(f, "JOBID", "PARTITION", "PRIORITY", "SITE", "AGE", "FAIRSHARE", "JOBSIZE", "PARTITION"),
        line(f, "42", "gpu", "6125", "0", "500", "5000", "125", "500"),
        line(f, "45", "high", "100", "0", "0", "2500", "250", "1000"));
    assertThat(fake.last().query()).isEmpty();
  }

  @Test
  void usersAddTheUserColumnAndFilterOnTheService() {
    Cli.Result r = cli.run("sprio", "-u", "alice", "-h");
    assertThat(r.out().lines().findFirst()).hasValue(
        line("%15s %-9s %8s %10s %10s %10s %10s %10s %10s", "42", "gpu", "alice", "6125", "0", "500", "5000", "125", "500"));
    assertThat(fake.last().query()).isEqualTo(Map.of("user", "alice"));
  }

  @Test
  void longNormalizedAndWeights() {
    assertThat(cli.run("sprio", "-l", "-h").out().lines().skip(1).findFirst()).hasValue(line(
        "%15s %-9s %8s %8s %10s %10s %10s %10s %10s %10s %10s %10s %10s %11s", "45", "high", "bob", "physics", "100",
        "0", "0", "0", "2500", "250", "1000", "normal", "0", "3000"));
    assertThat(cli.run("sprio", "-n", "-h").out().lines().findFirst()).hasValue(line(
        "%-15s %-9s %-10s %-10s %-10s %-10s %-10s", "42", "gpu", "0.00000142", "0.5000000", "0.5000000",
        "0.1250000", "0.5000000").replaceFirst("^42 {13}", "             42"));
    assertThat(cli.run("sprio", "-w").out().lines()).containsExactly(
        line("%15s %-9s %10s %10s %10s %10s %10s %10s", "JOBID", "PARTITION", "PRIORITY", "SITE", "AGE", "FAIRSHARE",
            "JOBSIZE", "PARTITION"),
        line("%15s %-9s %10s %10s %10s %10s %10s %10s", "Weights", "", "", "1", "1000", "10000", "1000", "1000"));
  }

  @Test
  void namedJobsAndTheFormatVariable() {
    assertThat(cli.run("sprio", "-j", "45", "-h", "-o", "%i %r %Y %N").out()).isEqualTo("45 high 100 3000\n");
    assertThat(cli.run("sprio", "-j", "99").out()).isEqualTo("Unable to find jobs matching user/id(s) specified\n");
    assertThat(cli.env("SPRIO_FORMAT", "%i|%u|%Q|%q").run("sprio", "-h").out().lines())
        .containsExactly("42|alice|0|0.0000000", "45|bob|0|0.0000000");
    Cli.Result bad = cli.run("sprio", "-o", "%i %Z");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).startsWith("sprio: error: Invalid format specification: %Z");
  }
}
