package io.squall.api.ui;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.squall.api.simulate.ChartLibrary;
import io.squall.api.state.ApiException;
import io.squall.api.web.Webjar;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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
 * <p>Only the files listed here are served; each is read once and kept, with an entity tag of its
 * bytes, so a browser's revalidation of an unchanged file (the chart library is about 1 MB) is
 * answered 304 without the file.
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

  /** A file as read: its bytes and their entity tag (quoted, as HTTP writes it). */
  private record Loaded(byte[] body, String etag) {
    static Loaded of(byte[] body) {
      try {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
        return new Loaded(body, "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every Java runtime has SHA-256", e);
      }
    }
  }

  private final Map<String, Asset> assets;
  private final Map<String, Loaded> read = new ConcurrentHashMap<>();

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
  public MutableHttpResponse<byte[]> page(@Header(value = HttpHeaders.IF_NONE_MATCH) @Nullable String ifNoneMatch) {
    return serve("index.html", ifNoneMatch);
  }

  @Get("/{file}")
  public MutableHttpResponse<byte[]> file(@PathVariable String file,
      @Header(value = HttpHeaders.IF_NONE_MATCH) @Nullable String ifNoneMatch) {
    if (!assets.containsKey(file)) {
      throw ApiException.notFound("/ui/" + file + ": the dashboard has no such file (it has "
          + String.join(", ", new java.util.TreeSet<>(assets.keySet())) + ")");
    }
    return serve(file, ifNoneMatch);
  }

  private MutableHttpResponse<byte[]> serve(String name, String ifNoneMatch) {
    Asset a = assets.get(name);
    Loaded file = read.computeIfAbsent(name, n -> Loaded.of(a.bytes().get()));
    MutableHttpResponse<byte[]> response = matches(ifNoneMatch, file.etag())
        ? HttpResponse.notModified() : HttpResponse.ok(file.body()).contentType(a.contentType());
    return response.header(HttpHeaders.ETAG, file.etag())
        .header("Content-Security-Policy", POLICY)
        .header("X-Content-Type-Options", "nosniff")
        .header("Referrer-Policy", "no-referrer")
        // A new build's page replaces the old at once; the browser revalidates with the entity tag.
        .header("Cache-Control", "no-cache");
  }

  /** RFC 9110's If-None-Match: {@code *} or a list of tags, compared weakly (a W/ prefix ignored). */
  private static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
    }
    for (String tag : ifNoneMatch.split(",")) {
      String t = tag.strip();
      if (t.equals("*") || (t.startsWith("W/") ? t.substring(2) : t).equals(etag)) {
        return true;
      }
    }
    return false;
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
