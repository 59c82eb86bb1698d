package io.squall.infra.gcp;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The names the GCP provider gives compact placement policies (its PlacementPolicies and GceNames):
 * {@code squall-CLUSTER-PROVIDERGROUP} when that is a valid GCE name, else lower-cased, other
 * characters as '-', cut to 54 and a hash of the original appended. The infrastructure makes the
 * policies under these names so the provider finds them made; GcePolicyNamesTest holds the two
 * to the same answers.
 */
public final class GcePolicyNames {
  private static final Pattern RESOURCE_NAME = Pattern.compile("[a-z]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final int LABEL_MAX = 63;

  private GcePolicyNames() {}

  /** The policy name for the provider placement group {@code providerGroup} of {@code cluster}. */
  public static String of(String cluster, String providerGroup) {
    String value = cluster + "-" + providerGroup;
    String plain = "squall-" + value;
    if (RESOURCE_NAME.matcher(plain).matches()) {
      return plain;
    }
    String s = plain.toLowerCase(Locale.ROOT).replaceAll("[^-a-z0-9]", "-");
    return s.substring(0, Math.min(s.length(), LABEL_MAX - 9)) + "-"
        + String.format(Locale.ROOT, "%08x", value.hashCode());
  }
}
