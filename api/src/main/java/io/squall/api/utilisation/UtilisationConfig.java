package io.squall.api.utilisation;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/**
 * {@code squall.utilisation.*}: how often the controller counts its GPUs for the utilisation
 * chart ({@code interval}, 10 s) and how long it keeps the counts ({@code keep}, 24 h; in memory,
 * so a restarted controller starts a new history).
 */
@ConfigurationProperties("squall.utilisation")
public class UtilisationConfig {
  private Duration interval = Duration.ofSeconds(10);
  private Duration keep = Duration.ofHours(24);

  public Duration getInterval() {
    return interval;
  }

  public void setInterval(Duration interval) {
    this.interval = interval;
  }

  public Duration getKeep() {
    return keep;
  }

  public void setKeep(Duration keep) {
    this.keep = keep;
  }
}
