package io.squall.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How to start another JVM like this one: the same java launcher and class path. The tool
 * wrappers and the local provider use it, so that what runs is exactly the code that is running.
 */
public final class JavaCommand {
  /**
   * JVM options for the quickest start (serial GC, C1 only) rather than the best peak speed: for
   * short-lived tools and for many mostly idle agents on one host.
   */
  public static final List<String> QUICK_START = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private JavaCommand() {}

  /** The java launcher of this JVM; {@code java.home}'s, else {@code $JAVA_HOME}'s, else {@code java} on the PATH. */
  public static String executable() {
    String command = ProcessHandle.current().info().command().orElse(null);
    if (command != null && Files.isExecutable(Path.of(command))) {
      return command;
    }
    for (String home : new String[] {System.getProperty("java.home"), System.getenv("JAVA_HOME")}) {
      if (home != null && Files.isExecutable(Path.of(home, "bin", "java"))) {
        return Path.of(home, "bin", "java").toString();
      }
    }
    return "java";
  }

  /** This JVM's class path, as given to it. */
  public static String classPath() {
    return System.getProperty("java.class.path");
  }
}
