package io.squall.infra;

import io.squall.infra.tf.TemplateText;
import java.util.Map;

/**
 * The controller machine's boot script: the cloud's own part (a Java runtime, the distribution,
 * configuration and secrets from that cloud's bucket and secret store), then the part every cloud
 * shares, {@code controller-service.sh} (the server's unit with infra.yml as a second file).
 */
public final class ControllerBoot {
  private ControllerBoot() {}

  /** {@code name} beside {@code owner}, filled in with {@code values}, followed by the shared part. */
  public static String script(Class<?> owner, String name, Map<String, String> values) {
    return TemplateText.render(owner, name, values)
        + TemplateText.render(ControllerBoot.class, "controller-service.sh", Map.of());
  }
}
