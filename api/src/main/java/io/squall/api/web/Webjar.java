package io.squall.api.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * A library packaged as a webjar on the class path (org.webjars.npm): its files are read from the
 * jar, never fetched, so what uses them (the what-if report, the dashboard) works offline. The
 * version is read from the webjar's own {@code pom.properties}, so a version bump in the pom needs
 * no change in the code.
 *
 * @param artifact the npm package's name, the webjar's artifact id
 */
public record Webjar(String artifact) {
  private static final String GROUP = "org.webjars.npm";

  /** The Maven coordinates, for a message about a missing jar. */
  public String coordinates() {
    return GROUP + ":" + artifact;
  }

  /**
   * The bytes of {@code file} (a path inside the package, such as {@code dist/echarts.min.js}).
   *
   * @throws IllegalStateException when the webjar, or that file in it, is not on {@code loader}'s
   *     class path; the message says which
   */
  public byte[] read(ClassLoader loader, String file) {
    String version = version(loader);
    String path = "META-INF/resources/webjars/" + artifact + "/" + version + "/" + file;
    try (InputStream in = loader.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException(coordinates() + ":" + version + " is on the class path but has no " + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  private String version(ClassLoader loader) {
    String properties = "META-INF/maven/" + GROUP + "/" + artifact + "/pom.properties";
    try (InputStream in = loader.getResourceAsStream(properties)) {
      if (in == null) {
        throw new IllegalStateException(coordinates() + " is not on the class path");
      }
      Properties pom = new Properties();
      pom.load(in);
      String version = pom.getProperty("version");
      if (version == null || version.isBlank()) {
        throw new IllegalStateException(properties + " names no version");
      }
      return version.strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + properties + ": " + e.getMessage(), e);
    }
  }
}
