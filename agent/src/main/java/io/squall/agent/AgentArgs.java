package io.squall.agent;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/** Reads the agent's command line into an {@link AgentConfig}. */
final class AgentArgs {
  static final String USAGE = """
      usage: squall-agent --controller URL[,URL...] --token-file FILE --name NAME --work-dir DIR
                          [--gpus N] [--gpu-type TYPE] [--cpus N] [--memory-mb N]
                          [--features a,b] [--placement-group PG] [--port 0] [--bind 127.0.0.1]
                          [--interruptions aws|gcp|none] [--metadata-url URL] [--ca-file FILE]
                          [--tls-cert FILE --tls-key FILE]
        --controller: the controller's address; with high availability every controller's, separated
          by commas: the agent talks to the one that leads and follows it when another takes over.
        --token-file: a file holding the agent token, readable by its owner only (mode 0600), so that
          the token is neither in the process list nor in the agent's environment. --token TOKEN
          gives it on the command line instead, where every local user can read it: for tests only.
        GPUs: without --gpus, nvidia-smi decides the count and type when it is on the PATH.
        --interruptions: watch this cloud's metadata service every second for spot interruption
          notices (aws: EC2 IMDSv2, gcp: GCE metadata server) and report them to the controller;
          none (the default) watches nothing. --metadata-url replaces the service's address
          (http://169.254.169.254 on aws, http://metadata.google.internal on gcp).
        --ca-file: with an https:// controller, the PEM file of the CA that signed its certificate
          (default: $SQUALL_CA_FILE, else the JDK's trusted CAs). Jobs inherit it as SQUALL_CA_FILE.
        --tls-cert, --tls-key: serve HTTPS instead of HTTP with this PEM certificate chain and PKCS#8
          PEM key (BEGIN PRIVATE KEY); the certificate must name the address the agent registers
          (--bind's, or this host's name for 0.0.0.0). The controller then needs squall.tls.agent-ca,
          and srun callers SQUALL_CA_FILE, naming its CA.""";

  private static final Set<String> OPTIONS = Set.of("controller", "token", "token-file", "name", "gpus", "gpu-type", "cpus",
      "memory-mb", "features", "placement-group", "work-dir", "port", "bind", "interruptions", "metadata-url", "ca-file", "tls-cert",
      "tls-key");

  private AgentArgs() {}

  /** A command line that cannot be used; the message says which option and why. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /**
   * Reads the command line; without {@code --gpus}, {@code probe} (nvidia-smi) is asked. A given
   * {@code --gpus} wins: the local provider runs several agents on one host, each with the GPUs
   * its node template names, whatever the host has.
   */
  static AgentConfig parse(List<String> args, Map<String, String> env, Supplier<Optional<GpuProbe.Gpus>> probe)
      throws UsageException {
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--")) {
        throw new UsageException("unexpected argument '" + arg + "'");
      }
      String name = arg.substring(2);
      String value;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new UsageException("--" + name + " needs a value");
      }
      if (!OPTIONS.contains(name)) {
        throw new UsageException("unknown option --" + name);
      }
      values.put(name, value);
    }
    if (values.containsKey("token-file")) {
      if (values.containsKey("token")) {
        throw new UsageException("give --token or --token-file, not both");
      }
      values.put("token", TokenFile.read(Path.of(values.get("token-file"))));
    }
    for (String required : List.of("controller", "token", "name", "work-dir")) {
      if (values.get(required) == null || values.get(required).isBlank()) {
        throw new UsageException("--" + required + (required.equals("token") ? "-file" : "") + " is required");
      }
    }
    Interruptions interruptions = interruptions(values.get("interruptions"));
    URI metadataUrl = values.containsKey("metadata-url") ? address("metadata-url", values.get("metadata-url")) : null;
    if (metadataUrl != null && interruptions == Interruptions.NONE) {
      throw new UsageException("--metadata-url is only read with --interruptions aws or gcp");
    }
    Path caFile = caFile(blankToNull(values.getOrDefault("ca-file", env.get(CaFile.ENV))));
    AgentConfig config = new AgentConfig(controllers(values.get("controller")), values.get("token"),
        values.get("name"),
        (int) number(values, "gpus", 0, 0, io.squall.core.model.Node.MAX_GPUS),
        blankToNull(values.get("gpu-type")),
        (int) number(values, "cpus", Runtime.getRuntime().availableProcessors(), 1, 1 << 20),
        number(values, "memory-mb", physicalMemoryMb(), 1, Long.MAX_VALUE),
        features(values.get("features")), blankToNull(values.get("placement-group")),
        Path.of(values.get("work-dir")),
        (int) number(values, "port", 0, 0, 65535),
        values.getOrDefault("bind", "127.0.0.1"),
        AgentConfig.DEFAULT_RETRY, interruptions, metadataUrl, caFile,
        serverTls(blankToNull(values.get("tls-cert")), blankToNull(values.get("tls-key"))));
    if (values.containsKey("gpus")) {
      return config;
    }
    Optional<GpuProbe.Gpus> probed = probe.get();
    return probed.isPresent() ? config.withGpus(probed.get().count(), probed.get().type()) : config;
  }

  /** One address, or several controllers' (high availability) separated by commas. */
  private static ControllerAddresses controllers(String text) throws UsageException {
    try {
      return ControllerAddresses.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--controller must be an http:// or https:// address, or several separated by commas: "
          + e.getMessage());
    }
  }

  private static URI address(String option, String text) throws UsageException {
    try {
      URI uri = new URI(text);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
        throw new UsageException("--" + option + " must be an http:// or https:// address, got '" + text + "'");
      }
      return uri;
    } catch (java.net.URISyntaxException e) {
      throw new UsageException("--" + option + ": '" + text + "' is not an address: " + e.getReason());
    }
  }

  /** The CA file, absolute (jobs inherit it and run elsewhere), checked now so that a bad one stops the start. */
  private static Path caFile(String text) throws UsageException {
    if (text == null) {
      return null;
    }
    Path file = Path.of(text).toAbsolutePath();
    try {
      CaFile.sslContext(file);
    } catch (TlsFileException e) {
      throw new UsageException("--ca-file (or " + CaFile.ENV + "): " + e.getMessage());
    }
    return file;
  }

  /** The agent's own TLS identity, read now so that a bad certificate or key stops the start; null for plain HTTP. */
  private static SSLContext serverTls(String cert, String key) throws UsageException {
    if (cert == null && key == null) {
      return null;
    }
    if (cert == null || key == null) {
      throw new UsageException("--tls-cert and --tls-key go together: give both, or neither for plain HTTP");
    }
    try {
      return TlsIdentity.serverContext(Path.of(cert), Path.of(key));
    } catch (TlsFileException e) {
      throw new UsageException("--tls-cert/--tls-key: " + e.getMessage());
    }
  }

  private static Interruptions interruptions(String text) throws UsageException {
    try {
      return text == null ? Interruptions.NONE : Interruptions.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  private static long number(Map<String, String> values, String name, long fallback, long min, long max)
      throws UsageException {
    String text = values.get(name);
    if (text == null) {
      return fallback;
    }
    try {
      long n = Long.parseLong(text.trim());
      if (n < min || n > max) {
        throw new UsageException("--" + name + " must be between " + min + " and " + max + ", got " + text);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be a whole number, got '" + text + "'");
    }
  }

  private static List<String> features(String text) {
    List<String> features = new ArrayList<>();
    if (text != null) {
      for (String f : text.split(",")) {
        if (!f.isBlank()) {
          features.add(f.trim());
        }
      }
    }
    return features;
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.trim();
  }

  private static long physicalMemoryMb() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return Math.max(1, os.getTotalMemorySize() / (1024 * 1024));
    }
    return 1;
  }
}
