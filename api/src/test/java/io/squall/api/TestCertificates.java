package io.squall.api;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away CA and the server certificates it signs, made with the JDK's keytool (no
 * BouncyCastle PKIX here): PEM files as an operator would give Squall.
 */
public final class TestCertificates {
  private static final String PASS = "test-pass";
  private final Path dir;
  /** The CA's certificate, what clients are given as SQUALL_CA_FILE. */
  public final Path caFile;

  private TestCertificates(Path dir) {
    this.dir = dir;
    this.caFile = dir.resolve("ca.pem");
  }

  /** A new CA in {@code dir}. */
  public static TestCertificates newCa(Path dir) throws IOException {
    TestCertificates certs = new TestCertificates(Files.createDirectories(dir));
    certs.keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=Squall test CA",
        "-ext", "bc:c", "-validity", "3", "-keystore", "ca.p12", "-storetype", "PKCS12", "-storepass", PASS);
    certs.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-storepass", PASS, "-file", "ca.pem");
    return certs;
  }

  /** A server's PEM certificate (signed by the CA, then the CA's) and PKCS#8 key. */
  public record Server(Path cert, Path key) {}

  /**
   * A key and a certificate the CA signs for {@code names} ({@code dns:localhost},
   * {@code ip:127.0.0.1}, ...), in {@code NAME.pem} and {@code NAME.key}.
   */
  public Server server(String name, String... names) throws IOException {
    String store = name + ".p12";
    keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
        "-validity", "3", "-keystore", store, "-storetype", "PKCS12", "-storepass", PASS);
    keytool("-certreq", "-alias", name, "-keystore", store, "-storepass", PASS, "-file", name + ".csr");
    keytool("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-storepass", PASS, "-infile", name + ".csr",
        "-outfile", name + ".signed", "-rfc", "-validity", "3", "-ext", "SAN=" + String.join(",", names));
    Path cert = dir.resolve(name + ".pem");
    Files.writeString(cert, Files.readString(dir.resolve(name + ".signed")) + Files.readString(caFile));
    Path key = dir.resolve(name + ".key");
    Files.writeString(key, pem("PRIVATE KEY", privateKey(dir.resolve(store), name).getEncoded()));
    return new Server(cert, key);
  }

  private static PrivateKey privateKey(Path store, String alias) throws IOException {
    try (InputStream in = Files.newInputStream(store)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, PASS.toCharArray());
      return (PrivateKey) ks.getKey(alias, PASS.toCharArray());
    } catch (GeneralSecurityException e) {
      throw new IOException(e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  private void keytool(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    try {
      boolean ended = p.waitFor(120, TimeUnit.SECONDS);
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!ended || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException("keytool " + String.join(" ", args) + " failed: " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
