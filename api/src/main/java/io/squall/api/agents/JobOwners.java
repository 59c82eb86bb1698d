package io.squall.api.agents;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import io.squall.api.config.UserConfig;
import io.squall.api.simulate.ServiceConfig;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OS user each Squall user's jobs run as on the nodes ({@code squall.users.NAME.unix-user},
 * or {@code uid} and {@code gid}; by default the OS user of the same name), as the launch
 * message's {@code run_as}. An agent running as root runs the job's processes as that user.
 * Checked when the controller starts.
 */
@Context
@Requires(notEnv = ServiceConfig.ENVIRONMENT) // squall simulate reads the configuration only
public final class JobOwners {
  private final Map<String, Map<String, Object>> runAs = new HashMap<>();

  /** @throws ConfigurationException for a user with both a name and a uid, a uid without a gid, or a bad name */
  public JobOwners(List<UserConfig> users) {
    for (UserConfig u : users) {
      String key = "squall.users." + u.getName();
      Map<String, Object> m = new LinkedHashMap<>();
      if (u.getUid() != null || u.getGid() != null) {
        if (u.getUnixUser() != null) {
          throw new ConfigurationException(key + ": give unix-user, or uid and gid, not both");
        }
        if (u.getUid() == null || u.getGid() == null || u.getUid() < 0 || u.getGid() < 0) {
          throw new ConfigurationException(key + ": uid and gid go together, as numbers from 0");
        }
        m.put("uid", u.getUid());
        m.put("gid", u.getGid());
      } else {
        String name = u.getUnixUser() == null ? u.getName() : u.getUnixUser();
        if (!name.matches("[A-Za-z_][A-Za-z0-9_.-]*\\$?")) {
          throw new ConfigurationException(key + ".unix-user: '" + name + "' is not an OS user name");
        }
        m.put("user", name);
      }
      runAs.put(u.getName(), Map.copyOf(m));
    }
  }

  /**
   * The launch message's {@code run_as} for a job of {@code user}; a user no longer configured
   * (their job was queued before) runs as the OS user of the same name.
   */
  public Map<String, Object> runAs(String user) {
    return runAs.getOrDefault(user, Map.of("user", user));
  }
}
