package io.squall.api.simulate;

import io.squall.api.web.Webjar;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The chart library the what-if page draws with: ECharts' minified script, read from its webjar on
 * the class path and inlined into the page, so the report is one file that opens offline and
 * shows the same charts whatever network its reader has (no CDN). The dashboard serves the same
 * file ({@link #ECHARTS}).
 */
public final class ChartLibrary {
  /** ECharts' webjar. */
  public static final Webjar WEBJAR = new Webjar("echarts");
  /** Its minified script, inside the package. */
  public static final String ECHARTS = "dist/echarts.min.js";
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
    String js;
    try {
      js = new String(WEBJAR.read(loader, ECHARTS), StandardCharsets.UTF_8);
    } catch (IllegalStateException e) {
      throw new IllegalStateException("cannot write the what-if report: its chart library (ECharts) is missing: "
          + e.getMessage() + ". The report inlines it so that the page opens offline; it is a dependency of"
          + " squall-api: run squall from a build of this repository (mvn -pl api -am install), or put the "
          + WEBJAR.coordinates() + " jar on the class path.", e);
    }
    // "<\/script" means the same as "</script" to JavaScript wherever such text may stand.
    return SCRIPT_END.matcher(js).replaceAll("<\\\\/$1");
  }
}
