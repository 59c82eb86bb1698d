package io.squall.api.simulate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The chart library the what-if page draws with: ECharts' minified script, read from its webjar on
 * the class path and inlined into the page, so the report is one file that opens offline and
 * shows the same charts whatever network its reader has (no CDN).
 *
 * <p>The webjar's version is read from its own {@code pom.properties}, so a version bump in the
 * pom needs no change here.
 */
final class ChartLibrary {
  /** The Maven coordinates a user is told about when the library is missing. */
  static final String WEBJAR = "org.webjars.npm:echarts";
  private static final String POM_PROPERTIES = "META-INF/maven/org.webjars.npm/echarts/pom.properties";
  /** An end tag inside inlined code would close the page's script element early. */
  private static final Pattern SCRIPT_END = Pattern.compile("</(script)", Pattern.CASE_INSENSITIVE);

  private ChartLibrary() {}

  /**
   * ECharts' minified script, safe to place between {@code <script>} and {@code </script>}.
   *
   * @throws IllegalStateException when the webjar is not on {@code loader}'s class path; the
   *     message says which artifact is missing and how to get it
   */
  static String script(ClassLoader loader) {
    String version = version(loader);
    String path = "META-INF/resources/webjars/echarts/" + version + "/dist/echarts.min.js";
    try (InputStream in = loader.getResourceAsStream(path)) {
      if (in == null) {
        throw missing(WEBJAR + ":" + version + " is on the class path but has no " + path);
      }
      String js = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      // "<\/script" means the same as "</script" to JavaScript wherever such text may stand.
      return SCRIPT_END.matcher(js).replaceAll("<\\\\/$1");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the chart library " + path + ": " + e.getMessage(), e);
    }
  }

  private static String version(ClassLoader loader) {
    try (InputStream in = loader.getResourceAsStream(POM_PROPERTIES)) {
      if (in == null) {
        throw missing(WEBJAR + " is not on the class path");
      }
      Properties pom = new Properties();
      pom.load(in);
      String version = pom.getProperty("version");
      if (version == null || version.isBlank()) {
        throw missing(POM_PROPERTIES + " names no version");
      }
      return version.strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + POM_PROPERTIES + ": " + e.getMessage(), e);
    }
  }

  private static IllegalStateException missing(String why) {
    return new IllegalStateException("cannot write the what-if report: its chart library (ECharts) is missing: " + why
        + ". The report inlines it so that the page opens offline; it is a dependency of squall-api: run squall"
        + " from a build of this repository (mvn -pl api -am install), or put the " + WEBJAR
        + " jar on the class path.");
  }
}
