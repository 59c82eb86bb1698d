package io.squall.agent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A server's TLS identity: a PEM certificate chain and its PKCS#8 PEM private key, as an
 * {@link SSLContext} to serve with. The agent has no framework to read keys for it, so this
 * takes the one key form the JDK reads ({@code BEGIN PRIVATE KEY}) and says how to convert the
 * others.
 */
public final class TlsIdentity {
  private static final Pattern PKCS8 = Pattern.compile(
      "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
  private static final char[] NO_PASSWORD = new char[0];

  private TlsIdentity() {}

  /** An SSL context serving {@code certFile}'s chain with {@code keyFile}'s key. */
  public static SSLContext serverContext(Path certFile, Path keyFile) throws TlsFileException {
    List<Certificate> chain = chain(certFile);
    PrivateKey key = privateKey(keyFile);
    if (!belongsTo(key, chain.get(0))) {
      throw new TlsFileException("the key in " + keyFile + " does not belong to the certificate in " + certFile);
    }
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("server", key, NO_PASSWORD, chain.toArray(new Certificate[0]));
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, NO_PASSWORD);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new TlsFileException("cannot serve the certificate in " + certFile + ": " + e.getMessage());
    }
  }

  /**
   * Whether {@code key} signs what {@code certificate}'s public key verifies: the key is the
   * certificate's. RSA and EC keys; a key of another kind than the certificate's does not belong.
   */
  public static boolean belongsTo(PrivateKey key, Certificate certificate) {
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      default -> null;
    };
    if (algorithm == null) {
      return false;
    }
    byte[] probe = "squall".getBytes(StandardCharsets.US_ASCII);
    try {
      Signature sign = Signature.getInstance(algorithm);
      sign.initSign(key);
      sign.update(probe);
      byte[] signature = sign.sign();
      Signature verify = Signature.getInstance(algorithm);
      verify.initVerify(certificate.getPublicKey());
      verify.update(probe);
      return verify.verify(signature);
    } catch (GeneralSecurityException e) {
      return false; // the certificate's public key is of another kind
    }
  }

  private static List<Certificate> chain(Path certFile) throws TlsFileException {
    List<Certificate> chain = new ArrayList<>();
    try (InputStream in = Files.newInputStream(certFile)) {
      chain.addAll(CertificateFactory.getInstance("X.509").generateCertificates(in));
    } catch (NoSuchFileException e) {
      throw new TlsFileException(certFile + " does not exist");
    } catch (IOException e) {
      throw new TlsFileException("cannot read " + certFile + ": " + e.getMessage());
    } catch (GeneralSecurityException e) {
      // Not PEM certificates: said below.
    }
    if (chain.isEmpty()) {
      throw new TlsFileException(certFile + " holds no PEM certificate (expected -----BEGIN CERTIFICATE-----)");
    }
    return chain;
  }

  private static PrivateKey privateKey(Path keyFile) throws TlsFileException {
    String text;
    try {
      text = Files.readString(keyFile, StandardCharsets.ISO_8859_1);
    } catch (NoSuchFileException e) {
      throw new TlsFileException(keyFile + " does not exist");
    } catch (IOException e) {
      throw new TlsFileException("cannot read " + keyFile + ": " + e.getMessage());
    }
    Matcher m = PKCS8.matcher(text);
    if (!m.find()) {
      throw new TlsFileException(keyFile + " is not a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----); convert"
          + " an RSA or EC one with: openssl pkcs8 -topk8 -nocrypt -in " + keyFile + " -out KEY.pem");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(m.group(1));
    } catch (IllegalArgumentException e) {
      throw new TlsFileException(keyFile + ": the key is not valid base64");
    }
    for (String algorithm : List.of("RSA", "EC")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException notThisKind) {
        // The next kind, then the error below.
      }
    }
    throw new TlsFileException(keyFile + " holds neither an RSA nor an EC private key");
  }
}
