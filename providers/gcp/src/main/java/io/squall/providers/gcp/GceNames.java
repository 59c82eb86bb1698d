package io.squall.providers.gcp;

import io.squall.core.provider.ProviderException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/** GCE's naming rules: resource names, label keys and values, request ids. */
final class GceNames {
  /** Instance and resource policy names (RFC 1035, at most 63 characters). */
  static final Pattern RESOURCE_NAME = Pattern.compile("[a-z]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final int LABEL_MAX = 63;

  private GceNames() {}

  /** The node name as an instance name, refused with {@code INVALID} when GCE would refuse it. */
  static String instanceName(String nodeName) {
    if (nodeName == null || !RESOURCE_NAME.matcher(nodeName).matches()) {
      throw new ProviderException(ProviderException.Kind.INVALID, "gcp: node name '" + nodeName
          + "' is not a GCE instance name ([a-z]([-a-z0-9]*[a-z0-9])?, at most 63 characters)");
    }
    return nodeName;
  }

  /** A label value: lowercase, {@code [a-z0-9_-]}, at most 63 characters (long ones end in a hash). */
  static String labelValue(String value) {
    String s = value.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]", "-");
    return s.length() <= LABEL_MAX ? s : s.substring(0, LABEL_MAX - 9) + "-" + hash(value);
  }

  /** A label key: a label value that starts with a letter and is not empty. */
  static String labelKey(String key) {
    String s = labelValue(key);
    if (s.isEmpty() || !Character.isLetter(s.charAt(0))) {
      s = labelValue("k-" + key);
    }
    return s;
  }

  /** A resource name made of {@code prefix-value}, within the rules whatever the value holds. */
  static String resourceName(String prefix, String value) {
    String plain = prefix + "-" + value;
    if (RESOURCE_NAME.matcher(plain).matches()) {
      return plain;
    }
    // Any rewrite may collide (pg.1 and pg-1): a hash of the original keeps names apart.
    String s = plain.toLowerCase(Locale.ROOT).replaceAll("[^-a-z0-9]", "-");
    return s.substring(0, Math.min(s.length(), LABEL_MAX - 9)) + "-" + hash(value);
  }

  /** The GCE requestId of a launch: the same token gives the same id, so GCE deduplicates a retry. */
  static String requestId(String idempotencyToken) {
    return UUID.nameUUIDFromBytes(("squall-launch/" + idempotencyToken).getBytes(StandardCharsets.UTF_8)).toString();
  }

  /** The last path segment of a GCE URL ({@code .../zones/us-central1-a} gives {@code us-central1-a}). */
  static String lastSegment(String url) {
    int slash = url.lastIndexOf('/');
    return slash < 0 ? url : url.substring(slash + 1);
  }

  private static String hash(String value) {
    return String.format(Locale.ROOT, "%08x", value.hashCode());
  }
}
