package io.squall.api.fleet;

import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.runtime.server.EmbeddedServer;
import io.squall.api.config.SquallConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The controller address a launched node's agent is given ({@code --controller}):
 * {@code squall.controller-url} when set (with high availability, every controller's address,
 * separated by commas: the agents follow whichever leads), else this server's loopback address, which only a node
 * on this machine reaches. Cloud nodes never run here, so with a cloud provider the key must be
 * set; a controller that started without it would launch machines that can never register.
 */
public final class ControllerUrl {
  private static final String KEY = "squall.controller-url";
  private final String configured;

  /** @throws ConfigurationException naming the key: a malformed address, or none with a cloud provider */
  public ControllerUrl(SquallConfig config) {
    this.configured = config.getControllerUrl() == null || config.getControllerUrl().isBlank() ? null
        : check(config.getControllerUrl().strip());
    if (configured == null && (config.getProvider().equals("aws") || config.getProvider().equals("gcp"))) {
      throw new ConfigurationException(KEY + " is not set: with provider " + config.getProvider()
          + " the nodes run on other machines and need the address they reach this controller at, e.g."
          + " http://10.0.1.5:6820 (SQUALL_CONTROLLER_URL)");
    }
  }

  /** The address for the nodes of the controller {@code server} runs. */
  public String forNodes(EmbeddedServer server) {
    return configured != null ? configured : loopback(server);
  }

  /** {@code server}'s address on this machine's loopback interface, with its scheme. */
  public static String loopback(EmbeddedServer server) {
    return server.getScheme() + "://127.0.0.1:" + server.getPort();
  }

  private static String check(String urls) {
    java.util.List<String> checked = new java.util.ArrayList<>();
    for (String url : urls.split(",", -1)) {
      checked.add(checkOne(url.strip()));
    }
    return String.join(",", checked);
  }

  private static String checkOne(String url) {
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
          && (uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/"))
          && uri.getQuery() == null && uri.getFragment() == null && uri.getUserInfo() == null) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
      }
    } catch (URISyntaxException e) {
      // said below
    }
    throw new ConfigurationException(KEY + ": '" + url + "' is not an address such as http://10.0.1.5:6820"
        + " (http or https, a host, an optional port, nothing after it; several separated by commas)");
  }
}
