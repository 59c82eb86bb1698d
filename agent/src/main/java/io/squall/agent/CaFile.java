package io.squall.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates an https client trusts instead of the JDK's: a PEM file holding a private CA
 * (or the controller's own certificate). The CLI, agents and the tools inside jobs name it with
 * {@code SQUALL_CA_FILE}. Only the trust anchors change: the HTTP client still checks that the
 * certificate names the host it dialled.
 */
public final class CaFile {
  /** The environment variable every Squall client reads, and that jobs inherit from their agent. */
  public static final String ENV = "SQUALL_CA_FILE";

  private CaFile() {}

  /** A client builder that trusts {@code caFile}'s certificates, or the JDK's when it is null. */
  public static HttpClient.Builder trusting(HttpClient.Builder builder, Path caFile) throws TlsFileException {
    return caFile == null ? builder : builder.sslContext(sslContext(caFile));
  }

  /** An SSL context whose only trust anchors are the certificates in {@code caFile}. */
  public static SSLContext sslContext(Path caFile) throws TlsFileException {
    Collection<? extends Certificate> certificates;
    try (InputStream in = Files.newInputStream(caFile)) {
      certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (NoSuchFileException e) {
      throw new TlsFileException("the CA file " + caFile + " does not exist");
    } catch (IOException e) {
      throw new TlsFileException("cannot read the CA file " + caFile + ": " + e.getMessage());
    } catch (GeneralSecurityException e) {
      throw new TlsFileException("the CA file " + caFile + " is not PEM certificates: " + e.getMessage());
    }
    if (certificates.isEmpty()) {
      throw new TlsFileException("the CA file " + caFile + " holds no certificate (expected -----BEGIN CERTIFICATE-----)");
    }
    try {
      KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
      anchors.load(null, null);
      int n = 0;
      for (Certificate c : certificates) {
        anchors.setCertificateEntry("ca-" + n++, c);
      }
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(anchors);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new TlsFileException("cannot trust the certificates in " + caFile + ": " + e.getMessage());
    }
  }
}
