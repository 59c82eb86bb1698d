package io.squall.api.tls;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.io.ResourceResolver;
import io.micronaut.http.HttpVersion;
import io.micronaut.http.ssl.SslBuilder;
import io.micronaut.http.ssl.SslConfiguration;
import io.squall.agent.TlsIdentity;
import io.squall.api.auth.DefaultSecrets;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Collections;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the controller's TLS settings before the server binds, reading the files as Micronaut
 * will (its own PEM reader: PKCS#8, PKCS#1 RSA and SEC1 EC keys) so that what passes here also
 * serves. A missing, unreadable or unparseable file, or a key that does not belong to the
 * certificate, stops the start with a message naming the setting and the file. Without TLS on an
 * address other hosts reach it warns: tokens then cross the network in clear.
 */
@Context
public final class ServerTls {
  private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);

  public ServerTls(@Value("${" + TlsConfigured.CERT + ":}") String cert, @Value("${" + TlsConfigured.KEY + ":}") String key,
      @Value("${micronaut.server.host:}") String host, ResourceResolver resources) {
    if (cert.isBlank() && key.isBlank()) {
      if (!DefaultSecrets.isLoopback(host)) {
        LOG.warn("serving plain HTTP on {}: tokens and job scripts cross the network unencrypted. Set {} and {}"
            + " (SQUALL_TLS_CERT, SQUALL_TLS_KEY) to serve HTTPS (README: TLS)",
            host.isBlank() ? "every address" : host, TlsConfigured.CERT, TlsConfigured.KEY);
      }
      return;
    }
    if (cert.isBlank() || key.isBlank()) {
      String missing = cert.isBlank() ? TlsConfigured.CERT : TlsConfigured.KEY;
      throw new ConfigurationException(missing + " is not set: HTTPS needs both " + TlsConfigured.CERT
          + " (the PEM certificate chain) and " + TlsConfigured.KEY + " (its PEM private key)");
    }
    Path certFile = readable(TlsConfigured.CERT, cert);
    Path keyFile = readable(TlsConfigured.KEY, key);
    Certificate leaf = leaf(certFile);
    PrivateKey privateKey = privateKey(certFile, keyFile, resources);
    if (!TlsIdentity.belongsTo(privateKey, leaf)) {
      throw new ConfigurationException(TlsConfigured.KEY + ": the key in " + keyFile + " does not belong to the"
          + " certificate in " + certFile + " (" + TlsConfigured.CERT + "); give the key the certificate was made for");
    }
    LOG.info("serving HTTPS only, with the certificate in {}", certFile);
  }

  private static Path readable(String setting, String file) {
    Path path = Path.of(file);
    if (!Files.exists(path)) {
      throw new ConfigurationException(setting + ": " + file + " does not exist");
    }
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new ConfigurationException(setting + ": " + file + " is not a file this user can read");
    }
    return path;
  }

  /** The first certificate of the chain: the server's own. */
  private static Certificate leaf(Path certFile) {
    Collection<? extends Certificate> chain;
    try (InputStream in = Files.newInputStream(certFile)) {
      chain = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (IOException | GeneralSecurityException e) {
      chain = Collections.emptyList();
    }
    if (chain.isEmpty()) {
      throw new ConfigurationException(TlsConfigured.CERT + ": " + certFile
          + " holds no PEM certificate (expected -----BEGIN CERTIFICATE-----)");
    }
    return chain.iterator().next();
  }

  private static PrivateKey privateKey(Path certFile, Path keyFile, ResourceResolver resources) {
    String problem;
    try {
      if (!Files.readString(keyFile, StandardCharsets.ISO_8859_1).contains("-----BEGIN")) {
        throw new ConfigurationException(TlsConfigured.KEY + ": " + keyFile
            + " is not a PEM private key (expected -----BEGIN PRIVATE KEY-----, RSA PRIVATE KEY or EC PRIVATE KEY)");
      }
      KeyStore store = new PemReader(resources).read(certFile, keyFile);
      for (String alias : Collections.list(store.aliases())) {
        Key k = store.getKey(alias, new char[0]);
        if (k instanceof PrivateKey p) {
          return p;
        }
      }
      problem = "no private key in it";
    } catch (ConfigurationException e) {
      throw e;
    } catch (Exception e) {
      // Micronaut's reader says what it could not read; its words name its own keys, so ours go first.
      problem = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
    throw new ConfigurationException(TlsConfigured.KEY + ": cannot read the private key in " + keyFile + ": " + problem
        + " (PEM: PKCS#8 unencrypted, PKCS#1 RSA or EC)");
  }

  /** Micronaut's own reader of a PEM certificate chain and key (SslBuilder keeps it for subclasses). */
  private static final class PemReader extends SslBuilder<KeyStore> {
    PemReader(ResourceResolver resources) {
      super(resources);
    }

    KeyStore read(Path certFile, Path keyFile) {
      SslConfiguration.KeyStoreConfiguration files = new SslConfiguration.KeyStoreConfiguration();
      files.setCertificatePath("file:" + certFile.toAbsolutePath());
      files.setKeyPath("file:" + keyFile.toAbsolutePath());
      SslConfiguration config = new SslConfiguration();
      config.setKeyStore(files);
      return build(config).orElseThrow();
    }

    /** The key store the configuration's files make: what the server's TLS context is built from. */
    @Override
    public Optional<KeyStore> build(SslConfiguration config) {
      try {
        return getKeyStore(config);
      } catch (Exception e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    }

    @Override
    public Optional<KeyStore> build(SslConfiguration config, HttpVersion version) {
      return build(config);
    }
  }
}
