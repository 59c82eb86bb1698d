package io.squall.agent;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * What one agent is told when it starts: its controller (or controllers, one leading), its node, where it keeps its files and
 * where it listens.
 *
 * @param gpuType null when the node has no GPU type to report
 * @param placementGroup null when the controller's configuration decides
 * @param workDir the agent's own directory: {@code bin/} (srun, scontrol) and {@code jobs/}
 * @param port 0 for any free port
 * @param retryInterval how often exit events and output are sent again while the controller does not take them
 * @param interruptions whose metadata service to watch for interruption notices
 * @param metadataUrl that service's address; null for the cloud's own
 * @param caFile the PEM file of the CA the controller's https certificate is checked against; null for the JDK's
 * @param serverTls the agent's own certificate and key, to serve HTTPS with; null to serve plain HTTP
 */
record AgentConfig(ControllerAddresses controller, String token, String name, int gpus, String gpuType, int cpus, long memoryMb,
    List<String> features, String placementGroup, Path workDir, int port, String bind, Duration retryInterval,
    Interruptions interruptions, URI metadataUrl, Path caFile, SSLContext serverTls) {
  static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);

  AgentConfig {
    features = List.copyOf(features);
    Objects.requireNonNull(interruptions, "interruptions");
  }

  AgentConfig withGpus(int count, String type) {
    return new AgentConfig(controller, token, name, count, type, cpus, memoryMb, features, placementGroup, workDir,
        port, bind, retryInterval, interruptions, metadataUrl, caFile, serverTls);
  }
}
