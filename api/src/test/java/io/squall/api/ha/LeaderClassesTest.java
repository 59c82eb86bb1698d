package io.squall.api.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A standby loads the classes of a leader's packages, without initialising any, from jars and directories. */
class LeaderClassesTest {
  /** Initialising it would say so: a standby must run no static initialiser. */
  static final class Noisy {
    static {
      System.setProperty("squall.test.noisy-initialised", "yes");
    }
  }

  /** Answers which classes it has loaded itself (not its parent's). */
  private static final class Watching extends URLClassLoader {
    Watching(Path... entries) throws Exception {
      super(urls(entries), null);
    }

    boolean loaded(Class<?> c) {
      return findLoadedClass(c.getName()) != null;
    }

    private static URL[] urls(Path... entries) throws Exception {
      URL[] urls = new URL[entries.length];
      for (int i = 0; i < entries.length; i++) {
        urls[i] = entries[i].toUri().toURL();
      }
      return urls;
    }
  }

  @Test
  void loadsTheClassesOfTheGivenPackagesWithoutInitialisingThem(@TempDir Path dir) throws Exception {
    Path classes = dir.resolve("classes");
    copyClass(Noisy.class, classes);
    copyClass(LeaderClassesTest.class, classes);
    Path jar = dir.resolve("other.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry(path(Watching.class)));
      out.write(Files.readAllBytes(classFile(Watching.class)));
      out.putNextEntry(new JarEntry("org/elsewhere/Other.class"));
      out.write(new byte[] {1, 2, 3}); // not a class: outside the packages, never read
    }
    try (Watching loader = new Watching(classes, jar)) {
      int loaded = new LeaderClasses().load(List.of(classes, jar, dir.resolve("missing.jar")),
          List.of("io/squall/api/ha/LeaderClassesTest"), loader);

      assertThat(loaded).isEqualTo(3);
      assertThat(loader.loaded(Noisy.class)).isTrue();
      assertThat(loader.loaded(Watching.class)).isTrue();
      assertThat(System.getProperty("squall.test.noisy-initialised")).isNull();
    }
  }

  @Test
  void aClassThatCannotBeLoadedIsSkipped(@TempDir Path dir) throws Exception {
    Path classes = dir.resolve("classes");
    // A class file that is not one: the loader refuses it, and the others still load.
    Files.createDirectories(classes.resolve("io/squall/broken"));
    Files.write(classes.resolve("io/squall/broken/Broken.class"), new byte[] {(byte) 0xCA, (byte) 0xFE});
    copyClass(Noisy.class, classes);
    try (Watching loader = new Watching(classes)) {
      assertThat(new LeaderClasses().load(List.of(classes), List.of("io/squall/"), loader)).isEqualTo(1);
      assertThat(loader.loaded(Noisy.class)).isTrue();
    }
  }

  @Test
  void onceStoppedItLoadsNoMore(@TempDir Path dir) throws Exception {
    Path classes = dir.resolve("classes");
    copyClass(Noisy.class, classes);
    LeaderClasses loading = new LeaderClasses();
    loading.stop();
    try (Watching loader = new Watching(classes)) {
      assertThat(loading.load(List.of(classes), List.of("io/squall/"), loader)).isZero();
      assertThat(loader.loaded(Noisy.class)).isFalse();
    }
  }

  private static void copyClass(Class<?> c, Path root) throws Exception {
    Path target = root.resolve(path(c));
    Files.createDirectories(target.getParent());
    Files.copy(classFile(c), target);
  }

  private static String path(Class<?> c) {
    return c.getName().replace('.', '/') + ".class";
  }

  private static Path classFile(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve(path(c));
  }
}
