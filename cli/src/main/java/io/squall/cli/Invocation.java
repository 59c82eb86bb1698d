package io.squall.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.Map;

/**
 * What a verb runs with: its streams, environment, working directory, clock, zone and way of
 * waiting. Passed in rather than read from {@code System} so tests can run every verb in-process.
 */
record Invocation(
    InputStream in, PrintStream out, PrintStream err, Map<String, String> env, Path cwd, InstantSource clock,
    ZoneId zone, Sleeper sleeper) {

  static Invocation system() {
    return new Invocation(System.in, System.out, System.err, System.getenv(),
        Path.of(System.getProperty("user.dir")), InstantSource.system(), ZoneId.systemDefault(), Sleeper.SYSTEM);
  }
}
