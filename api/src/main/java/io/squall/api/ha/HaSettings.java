package io.squall.api.ha;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.Environment;
import io.micronaut.context.exceptions.ConfigurationException;
import java.time.Duration;
import java.util.Locale;

/**
 * The {@code squall.ha.*} settings and the database they apply to, read from the same sources as
 * the controller's own configuration (files, environment, system properties) but before its
 * application context starts: a standby must not start it.
 *
 * @param leaseTtl how long a lease lasts unrenewed: a dead leader is replaced this long after its
 *     last renewal at the latest (plus the new leader's start-up)
 * @param renewInterval how often the leader renews; well below {@code leaseTtl} so that one slow
 *     renewal does not depose it
 * @param advertiseUrl this controller's address as clients reach it: standbys send clients there
 * @param tls whether the controller serves HTTPS (a standby then does not listen: see {@link StandbyServer})
 */
public record HaSettings(boolean enabled, String jdbcUrl, String username, String password, Duration leaseTtl,
    Duration renewInterval, String advertiseUrl, String host, int port, boolean tls) {
  static final String PREFIX = "squall.ha.";

  /** @throws ConfigurationException naming the key when HA is on and a setting cannot work */
  public HaSettings {
    if (enabled) {
      if (jdbcUrl == null || !jdbcUrl.toLowerCase(Locale.ROOT).startsWith("jdbc:postgresql:")) {
        throw new ConfigurationException(PREFIX + "enabled needs PostgreSQL: the controllers share its database and"
            + " its lease, but datasources.default.url is '" + jdbcUrl + "' (H2 is one controller's own file);"
            + " set DATASOURCES_DEFAULT_URL=jdbc:postgresql://host/db");
      }
      if (leaseTtl.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new ConfigurationException(PREFIX + "lease-ttl must be at least 1s, got " + leaseTtl);
      }
      if (renewInterval.isZero() || renewInterval.isNegative() || renewInterval.multipliedBy(2).compareTo(leaseTtl) > 0) {
        throw new ConfigurationException(PREFIX + "renew-interval must be positive and at most half of "
            + PREFIX + "lease-ttl (" + leaseTtl + "), got " + renewInterval);
      }
      if (advertiseUrl == null || !advertiseUrl.matches("https?://[^/\\s,]+/?")) {
        throw new ConfigurationException(PREFIX + "advertise-url must be this controller's address as clients"
            + " reach it, such as http://10.0.1.5:6820, got '" + advertiseUrl + "'");
      }
      advertiseUrl = advertiseUrl.endsWith("/") ? advertiseUrl.substring(0, advertiseUrl.length() - 1) : advertiseUrl;
    }
  }

  /** Reads the settings as {@code Micronaut.build(args)} would see them. */
  public static HaSettings read(String[] args) {
    try (ApplicationContext context = ApplicationContext.builder().args(args).build()) {
      Environment env = context.getEnvironment().start();
      try {
        return new HaSettings(env.getProperty(PREFIX + "enabled", Boolean.class, false),
            env.getProperty("datasources.default.url", String.class, (String) null),
            env.getProperty("datasources.default.username", String.class, ""),
            env.getProperty("datasources.default.password", String.class, ""),
            env.getProperty(PREFIX + "lease-ttl", Duration.class, Duration.ofSeconds(5)),
            env.getProperty(PREFIX + "renew-interval", Duration.class, Duration.ofSeconds(1)),
            env.getProperty(PREFIX + "advertise-url", String.class, (String) null),
            env.getProperty("micronaut.server.host", String.class, "127.0.0.1"),
            env.getProperty("micronaut.server.port", Integer.class, 6820),
            !env.getProperty("squall.tls.cert", String.class, "").isBlank());
      } finally {
        env.stop();
      }
    }
  }
}
