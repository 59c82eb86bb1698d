package io.squall.api.fleet;

import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import io.squall.api.config.SquallConfig;
import jakarta.inject.Singleton;

/** Tells whoever started the controller how to use it. */
@Singleton
public final class Banner implements ApplicationEventListener<ServerStartupEvent> {
  private final SquallConfig config;

  public Banner(SquallConfig config) {
    this.config = config;
  }

  @Override
  public void onApplicationEvent(ServerStartupEvent event) {
    String url = ControllerUrl.loopback(event.getSource());
    System.out.println("""

        Squall is up at %s (cluster %s, data in %s).
        In another shell:
          export PATH=$PWD/bin:$PATH SQUALL_URL=%s SQUALL_TOKEN=alice-token
          sinfo
          sbatch examples/hello-gpu.sh
          squeue
        Stop it with Ctrl-C: jobs and their history are kept for the next start.
        """.formatted(url, config.getClusterName(), config.getDataDir().toAbsolutePath(), url));
  }
}
