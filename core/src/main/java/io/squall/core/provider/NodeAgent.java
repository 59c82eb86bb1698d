package io.squall.core.provider;

import java.util.Locale;

/**
 * How a launched machine gets its Squall agent: the command that starts it, and where the agent
 * archive is fetched from at boot when the image does not carry the agent (a stock GPU image).
 *
 * @param command the agent's launcher on the machine, {@link AgentBootstrap#DEFAULT_AGENT_COMMAND}
 *     on images made with the node image recipe
 * @param archiveUrl the agent distribution ({@code squall-agent-VERSION.tar.gz}) at an
 *     {@code s3://}, {@code gs://} or {@code https://} address, fetched and installed when
 *     {@code command} is not there; null: the image must carry the agent
 * @param controllerCa the PEM certificate(s) the agent trusts for an HTTPS controller whose
 *     certificate a private CA signed ({@code squall.tls.node-ca}); null: the JDK's trusted CAs
 */
public record NodeAgent(String command, String archiveUrl, String controllerCa) {
  /** EC2 takes 16 KB of user data for a whole launch: a CA bundle may use a quarter of it. */
  static final int MAX_CA_BYTES = 4096;

  public NodeAgent {
    if (command == null || command.isBlank()) {
      throw new IllegalArgumentException("agent command must not be blank");
    }
    if (archiveUrl != null) {
      String lower = archiveUrl.toLowerCase(Locale.ROOT);
      if (!(lower.startsWith("s3://") || lower.startsWith("gs://") || lower.startsWith("https://"))) {
        throw new IllegalArgumentException("agent archive URL '" + archiveUrl
            + "' must start with s3://, gs:// or https://");
      }
      if (archiveUrl.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
        throw new IllegalArgumentException("agent archive URL '" + archiveUrl + "' holds white space or control characters");
      }
      if (!command.equals(AgentBootstrap.DEFAULT_AGENT_COMMAND)) {
        // The archive's recipe installs the agent there; another command would never appear.
        throw new IllegalArgumentException("an agent fetched from " + archiveUrl + " is installed at "
            + AgentBootstrap.DEFAULT_AGENT_COMMAND + ", not at the agent command " + command);
      }
    }
    if (controllerCa != null && (!controllerCa.contains("-----BEGIN CERTIFICATE-----")
        || controllerCa.length() > MAX_CA_BYTES)) { // PEM is ASCII: a character is a byte
      throw new IllegalArgumentException("the controller's CA for the nodes must be PEM certificates"
          + " (-----BEGIN CERTIFICATE-----) of at most " + MAX_CA_BYTES + " bytes");
    }
  }

  /** The agent the image carries at {@code command}. */
  public static NodeAgent installed(String command) {
    return new NodeAgent(command, null, null);
  }

  /** The agent the node image recipe installs. */
  public static NodeAgent defaults() {
    return installed(AgentBootstrap.DEFAULT_AGENT_COMMAND);
  }

  /** The same, fetched from {@code url} when the image lacks it. */
  public NodeAgent fetchedFrom(String url) {
    return new NodeAgent(command, url, controllerCa);
  }

  /** The same, trusting {@code pem} (or the JDK's CAs, null) for the controller's certificate. */
  public NodeAgent trusting(String pem) {
    return new NodeAgent(command, archiveUrl, pem);
  }
}
