package io.squall.api.fleet;

import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import io.squall.api.agents.AgentCredentials;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.core.model.Node;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.NodeProvider;
import io.squall.providers.local.LocalProvider;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the configured nodes up through the provider once the HTTP server listens (their
 * agents need its address), and takes them down when the controller stops. With provider
 * {@code none} agents are started elsewhere and simply register.
 */
@Singleton
public final class NodeFleet implements ApplicationEventListener<ServerStartupEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(NodeFleet.class);
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final NodeProvider provider;
  private final AgentCredentials credentials;
  private final ControllerUrl controllerUrl;

  public NodeFleet(ClusterLayout layout, SquallConfig config, Providers providers, AgentCredentials credentials) {
    this.layout = layout;
    this.credentials = credentials;
    this.config = config;
    this.provider = providers.provider();
    this.controllerUrl = providers.controllerUrl();
  }

  @Override
  public void onApplicationEvent(ServerStartupEvent event) {
    List<NodeLaunch> launches = new ArrayList<>();
    EmbeddedServer server = event.getSource();
    // The local provider's agents run here: loopback reaches the controller (the certificate must
    // name 127.0.0.1 under TLS), unless squall.controller-url names the controllers (high
    // availability: every one's address, so that the agents follow whichever leads).
    String url = controllerUrl.forNodes(server);
    for (Node n : layout.nodes()) {
      if (!layout.isElastic(n.name())) {
        launches.add(new NodeLaunch(n, url, credentials.forLaunch(n.name())));
      }
    }
    if (provider == null || launches.isEmpty()) {
      return;
    }
    if (!provider.name().equals("local")) {
      throw new IllegalStateException("squall.partitions: with provider " + provider.name()
          + " every partition must be elastic (its nodes are launched on demand)");
    }
    LOG.info("starting {} static nodes with the {} provider", launches.size(), provider.name());
    provider.launch(new LaunchRequest(config.getClusterName(), "static", launches, launches.size(),
        provider.offerings(List.of(LocalProvider.INSTANCE_TYPE)).get(0), null, Map.of(), "static-nodes"));
  }

  /**
   * Stops one node's agent and everything it runs, as a machine failure would (for operators
   * and tests). The node goes DOWN when its heartbeats stop.
   */
  public void stopNode(String name) {
    if (provider == null) {
      throw new IllegalStateException("no provider runs the nodes (squall.provider=none)");
    }
    provider.list(config.getClusterName()).stream().filter(i -> name.equals(i.nodeName())).forEach(provider::terminate);
  }
}
