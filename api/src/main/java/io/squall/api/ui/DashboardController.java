package io.squall.api.ui;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.squall.api.simulate.ChartLibrary;
import io.squall.api.state.ApiException;
import io.squall.api.web.Webjar;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The web dashboard at {@code /ui}: one page and its scripts, all from the service's own jar (the
 * page's files under {@code ui/}, ECharts and Tabulator from their webjars), so it works on a
 * cluster with no way out. The page holds no data: it reads the JSON API with the token its user
 * types, so the API's own authorization applies to everything it shows and does. The files are
 * served without a token, as {@code /health} is.
 *
 * <p>Only the files listed here are served; each is read once and kept.
 */
@Controller("/ui")
public final class DashboardController {
  /**
   * Nothing but this origin: no CDN, no inline script, no frames. Styles may be inline because the
   * chart and table libraries position their elements with style attributes.
   */
  static final String POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
      + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
      + "form-action 'none'";
  private static final Webjar TABULATOR = new Webjar("tabulator-tables");
  private static final String JS = "text/javascript; charset=utf-8";
  private static final String CSS = "text/css; charset=utf-8";

  /** A file of the page: its content type and where its bytes come from. */
  private record Asset(String contentType, Supplier<byte[]> bytes) {}

  private final Map<String, Asset> assets;
  private final Map<String, byte[]> read = new ConcurrentHashMap<>();

  public DashboardController() {
    ClassLoader loader = DashboardController.class.getClassLoader();
    assets = Map.of(
        "index.html", new Asset("text/html; charset=utf-8", () -> own(loader, "index.html")),
        "app.js", new Asset(JS, () -> own(loader, "app.js")),
        "app.css", new Asset(CSS, () -> own(loader, "app.css")),
        "echarts.min.js", new Asset(JS, () -> ChartLibrary.WEBJAR.read(loader, ChartLibrary.ECHARTS)),
        "tabulator.min.js", new Asset(JS, () -> TABULATOR.read(loader, "dist/js/tabulator.min.js")),
        "tabulator.min.css", new Asset(CSS, () -> TABULATOR.read(loader, "dist/css/tabulator_simple.min.css")));
  }

  @Get(uris = {"/", "/index.html"})
  public MutableHttpResponse<byte[]> page() {
    return serve("index.html");
  }

  @Get("/{file}")
  public MutableHttpResponse<byte[]> file(@PathVariable String file) {
    if (!assets.containsKey(file)) {
      throw ApiException.notFound("/ui/" + file + ": the dashboard has no such file (it has "
          + String.join(", ", new java.util.TreeSet<>(assets.keySet())) + ")");
    }
    return serve(file);
  }

  private MutableHttpResponse<byte[]> serve(String name) {
    Asset a = assets.get(name);
    byte[] body = read.computeIfAbsent(name, n -> a.bytes().get());
    return HttpResponse.ok(body).contentType(a.contentType())
        .header("Content-Security-Policy", POLICY)
        .header("X-Content-Type-Options", "nosniff")
        .header("Referrer-Policy", "no-referrer")
        // A new build's page replaces the old at once; the browser still revalidates cheaply.
        .header("Cache-Control", "no-cache");
  }

  private static byte[] own(ClassLoader loader, String file) {
    try (InputStream in = loader.getResourceAsStream("ui/" + file)) {
      if (in == null) {
        throw new IllegalStateException("the dashboard's ui/" + file + " is missing from the service's jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the dashboard's ui/" + file + ": " + e.getMessage(), e);
    }
  }
}
