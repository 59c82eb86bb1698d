package io.squall.cli;

import io.squall.cli.fake.FakeSquall;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Runs a verb in-process against a fake service, with a fixed clock and zone and pauses that return
 * at once, and captures its output.
 */
final class Cli {
  static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
  static final String TOKEN = "t0ken";

  record Result(int exit, String out, String err) {}

  private final Map<String, String> env = new HashMap<>();
  private ZoneId zone = ZoneId.of("UTC");
  private Path cwd = Path.of("/home/alice/work");
  private String stdin = "";
  /** Every pause a verb asked for; none is slept, so tests never wait on the wall clock. */
  private final List<Duration> pauses = new CopyOnWriteArrayList<>();
  /** After this many pauses the next one is interrupted, as a loop like {@code sinfo -i} is stopped. */
  private int pauseLimit = Integer.MAX_VALUE;

  Cli(FakeSquall fake) {
    this(fake.url());
  }

  Cli(String url) {
    env.put("SQUALL_URL", url);
    env.put("SQUALL_TOKEN", TOKEN);
    env.put("USER", "alice");
    env.put("HOME", "/nonexistent-home");
  }

  Cli env(String key, String value) {
    if (value == null) {
      env.remove(key);
    } else {
      env.put(key, value);
    }
    return this;
  }

  Cli zone(String id) {
    zone = ZoneId.of(id);
    return this;
  }

  Cli cwd(Path dir) {
    cwd = dir;
    return this;
  }

  Cli stdin(String text) {
    stdin = text;
    return this;
  }

  /** Interrupts the {@code n}th pause, ending a verb that loops until it is stopped. */
  Cli interruptPause(int n) {
    pauseLimit = n;
    return this;
  }

  List<Duration> pauses() {
    return List.copyOf(pauses);
  }

  Map<String, String> environment() {
    return Map.copyOf(env);
  }

  Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Invocation io = new Invocation(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
        Map.copyOf(env), cwd, InstantSource.fixed(NOW), zone, pause -> {
          pauses.add(pause);
          if (pauses.size() >= pauseLimit) {
            throw new InterruptedException("stopped");
          }
        });
    int exit = Main.run(List.of(args), io);
    // A verb stopped by an interrupted pause keeps the thread's interrupt flag set, as it should;
    // this thread runs the next test, so the flag is cleared here.
    Thread.interrupted();
    return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
