package io.squall.api;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The one way browser tests get a browser: Debian's {@code chromium} driven through its
 * {@code chromedriver}, both found on the PATH (no driver download), headless, with every request
 * to anywhere but this host sent to a closed port, so a page that tried to fetch from outside
 * would fail visibly. Without them the test is skipped ({@code .ci/run} installs them).
 */
public final class HeadlessChromium {
  private HeadlessChromium() {}

  /** A new browser, or the calling test skipped when chromium or chromedriver is missing. */
  public static ChromeDriver start() {
    Optional<Path> chromium = onPath("chromium");
    Optional<Path> chromedriver = onPath("chromedriver");
    assumeTrue(chromium.isPresent() && chromedriver.isPresent(),
        "chromium and chromedriver are not installed (Debian: apt-get install chromium chromium-driver; .ci/run does)");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(chromedriver.get().toFile()).usingAnyFreePort().build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get().toFile());
    options.addArguments("--headless=new", "--window-size=1400,1000", "--disable-gpu", "--disable-dev-shm-usage",
        // Root (as CI runs) cannot use Chromium's sandbox; the pages are our own.
        "--no-sandbox",
        // Any request for another host would go to a closed port, never out (loopback is never proxied).
        "--proxy-server=127.0.0.1:9", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--no-default-browser-check");
    ChromeDriver browser = new ChromeDriver(service, options);
    // Recorded from before a page's first script: its errors, and anything its policy blocked.
    browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", """
        window.__problems = [];
        window.addEventListener('error', function (e) { window.__problems.push('error: ' + e.message); });
        document.addEventListener('securitypolicyviolation', function (e) {
          window.__problems.push('blocked: ' + e.blockedURI + ' (' + e.violatedDirective + ')');
        });
        """));
    return browser;
  }

  /** The whole page, not only the window, as a PNG for a person to look at. */
  public static void screenshot(ChromeDriver browser, Path png) {
    @SuppressWarnings("unchecked")
    Map<String, Object> shot = (Map<String, Object>) (Map<?, ?>) browser.executeCdpCommand("Page.captureScreenshot",
        Map.of("format", "png", "captureBeyondViewport", true));
    try {
      Files.createDirectories(png.toAbsolutePath().getParent());
      Files.write(png, Base64.getDecoder().decode((String) shot.get("data")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<Path> onPath(String program) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, program))
        .filter(Files::isExecutable)
        .findFirst();
  }
}
