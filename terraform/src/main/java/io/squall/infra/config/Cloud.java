package io.squall.infra.config;

import io.squall.infra.InfraException;

/** The clouds {@code infra synth} writes infrastructure for: the controller's {@code squall.provider} values. */
public enum Cloud {
  AWS("aws"),
  GCP("gcp");

  private final String key;

  Cloud(String key) {
    this.key = key;
  }

  /** The name in {@code --provider} and {@code squall.provider}. */
  public String key() {
    return key;
  }

  /** The cloud named {@code name}, or an error listing the ones there are. */
  public static Cloud named(String name) throws InfraException {
    for (Cloud c : values()) {
      if (c.key.equals(name)) {
        return c;
      }
    }
    throw new InfraException("--provider: unknown provider '" + name + "'; infra synth knows aws and gcp");
  }
}
