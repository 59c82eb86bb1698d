package io.squall.api.ha;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads, while a controller stands by, the classes its start will need once it leads: every class
 * of the packages a leader's start loads (Squall's, Micronaut's, Netty's, Jackson's, the database
 * pool's, the driver's, Flyway's, the logger's) found on the class path. A takeover is a cold
 * start, and in a cold JVM loading those classes was about half of it: a small controller served
 * its first request 7.6 to 9.6 s after its start, and 3.6 to 4.8 s after the same start once these
 * 13,000 classes were loaded (README: High availability).
 *
 * <p>Classes are loaded, not initialised: no static initialiser runs, so nothing starts and nothing
 * is read or written. A class that cannot be loaded (an optional dependency missing) is skipped.
 * About 5 s of one core, spent while the leader is alive; stopped when this controller comes to lead.
 */
final class LeaderClasses {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderClasses.class);
  /**
   * The packages, as class file paths begin. Not H2's (HA runs on PostgreSQL) nor the cloud SDKs'
   * (a provider's client is made when the partition first needs it, after the takeover).
   */
  static final List<String> PACKAGES = List.of("io/squall/", "io/micronaut/", "io/netty/", "com/fasterxml/jackson/",
      "reactor/core/", "com/zaxxer/hikari/", "org/postgresql/", "org/flywaydb/", "ch/qos/logback/",
      "org/yaml/snakeyaml/", "io/micrometer/core/");

  /** Set once this controller leads: its own start then loads what it needs, and should not share the CPU. */
  private volatile boolean stopped;

  LeaderClasses() {}

  /** Starts loading them on a daemon thread of its own, so the standby keeps looking at the lease meanwhile. */
  static LeaderClasses loadInBackground() {
    LeaderClasses loading = new LeaderClasses();
    Thread t = new Thread(() -> {
      long start = System.nanoTime();
      int loaded = loading.load(classPath(), PACKAGES, LeaderClasses.class.getClassLoader());
      LOG.info("standing by: loaded {} classes a leader needs in {} ms{}", loaded,
          (System.nanoTime() - start) / 1_000_000, loading.stopped ? " (stopped: this controller leads)" : "");
    }, "standby-class-loading");
    t.setDaemon(true);
    t.start();
    return loading;
  }

  /** Stops the loading (the classes loaded stay loaded). */
  void stop() {
    stopped = true;
  }

  /** This JVM's class path: its jars and directories. */
  static List<Path> classPath() {
    List<Path> entries = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        entries.add(Path.of(entry));
      }
    }
    return entries;
  }

  /**
   * Loads through {@code loader}, without initialising them, the classes in {@code classPath}
   * (jars and directories) whose names begin with one of {@code packages}; answers how many loaded.
   */
  int load(List<Path> classPath, List<String> packages, ClassLoader loader) {
    int loaded = 0;
    for (Path entry : classPath) {
      for (String file : classFiles(entry)) {
        if (stopped) {
          return loaded;
        }
        if (packages.stream().noneMatch(file::startsWith)) {
          continue;
        }
        try {
          Class.forName(file.substring(0, file.length() - ".class".length()).replace('/', '.'), false, loader);
          loaded++;
        } catch (ClassNotFoundException | LinkageError e) {
          // An optional dependency missing: the leader would not load it either.
        }
      }
    }
    return loaded;
  }

  /** The class files of a jar or a directory, as paths inside it; none when it cannot be read. */
  private static List<String> classFiles(Path entry) {
    List<String> names = new ArrayList<>();
    try {
      if (Files.isDirectory(entry)) {
        try (Stream<Path> files = Files.walk(entry)) {
          files.filter(f -> f.toString().endsWith(".class"))
              .forEach(f -> names.add(entry.relativize(f).toString().replace(File.separatorChar, '/')));
        }
      } else if (Files.isRegularFile(entry)) {
        try (JarFile jar = new JarFile(entry.toFile())) {
          jar.stream().map(JarEntry::getName).filter(n -> n.endsWith(".class")).forEach(names::add);
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("standing by: cannot list the classes of {}: {}", entry, e.getMessage());
    }
    return names;
  }
}
