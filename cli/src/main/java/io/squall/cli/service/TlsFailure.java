package io.squall.cli.service;

import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;

/**
 * Says in one line why an https connection to the service failed, and what to set. A handshake
 * that fails is a setting to fix, not an outage to wait out, so it is a {@link ServiceConfigException}
 * (callers that retry while the service is unreachable stop at once).
 */
final class TlsFailure {
  private TlsFailure() {}

  static ServiceConfigException explain(ServiceAddress address, SSLException e) {
    String where = address.caFile() != null ? "the CA file " + address.caFile()
        : "the JDK's trusted CAs (set SQUALL_CA_FILE, or 'ca-file =' in " + address.configFile()
            + ", to the CA that signed it)";
    if (caused(e, CertPathValidatorException.class) || causedBy(e, "sun.security.validator.ValidatorException")) {
      return new ServiceConfigException("the controller's certificate is not trusted: " + deepest(e)
          + "; it was checked against " + where);
    }
    if (caused(e, CertificateException.class)) {
      // The JDK's hostname check: the certificate is trusted but names another host.
      return new ServiceConfigException("the controller's certificate does not name the host in " + address.url()
          + ": " + deepest(e) + "; use a name or address the certificate holds");
    }
    return new ServiceConfigException("cannot speak TLS with the service at " + address.url() + ": " + deepest(e)
        + " (is it serving https on that port?)");
  }

  private static boolean caused(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  /** By name: the JDK's validator exception is not exported. */
  private static boolean causedBy(Throwable e, String className) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
        if (c.getName().equals(className)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String deepest(Throwable e) {
    String message = e.getClass().getSimpleName();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        message = t.getMessage();
      }
    }
    return message;
  }
}
