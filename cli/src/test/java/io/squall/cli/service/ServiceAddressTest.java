package io.squall.cli.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceAddressTest {
  @TempDir
  Path home;

  @Test
  void defaultsToTheLocalServiceWithoutToken() {
    ServiceAddress a = ServiceAddress.resolve(Map.of("HOME", home.toString()));
    assertThat(a.url()).isEqualTo("http://127.0.0.1:6820");
    assertThat(a.token()).isNull();
    assertThat(a.configFile()).isEqualTo(home.resolve(".config/squall/config"));
  }

  @Test
  void readsTheConfigFileInHome() throws IOException {
    Path file = home.resolve(".config/squall/config");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "# squall client\n\nurl = http://head:6820/\ntoken = \"s3cret\"\n");
    ServiceAddress a = ServiceAddress.resolve(Map.of("HOME", home.toString()));
    assertThat(a.url()).isEqualTo("http://head:6820");
    assertThat(a.token()).isEqualTo("s3cret");
  }

  @Test
  void environmentWinsOverTheFileSettingBySetting() throws IOException {
    Path file = home.resolve("other.conf");
    Files.writeString(file, "url = http://head:6820\ntoken = from-file\n");
    ServiceAddress a = ServiceAddress.resolve(Map.of("SQUALL_CONFIG", file.toString(), "SQUALL_TOKEN", "from-env"));
    assertThat(a.url()).isEqualTo("http://head:6820");
    assertThat(a.token()).isEqualTo("from-env");
    assertThat(ServiceAddress.resolve(Map.of("SQUALL_CONFIG", file.toString(), "SQUALL_URL", "https://x:1")).url())
        .isEqualTo("https://x:1");
  }

  @Test
  void severalControllersAreGivenSeparatedByCommasEachChecked() {
    assertThat(ServiceAddress.resolve(Map.of("HOME", home.toString(), "SQUALL_URL", "http://a:6820/,https://b:6820"))
        .url()).isEqualTo("http://a:6820,https://b:6820");
    assertThatThrownBy(() -> ServiceAddress.resolve(Map.of("HOME", home.toString(), "SQUALL_URL", "http://a:6820,b:6820")))
        .isInstanceOf(ServiceConfigException.class).hasMessageContaining("'b:6820' must start with http://");
  }

  @Test
  void theCaFileComesFromTheEnvironmentOrTheFileElseTheJdksCasAreTrusted() throws IOException {
    Path file = home.resolve("tls.conf");
    Files.writeString(file, "url = https://head:6820\nca-file = /etc/squall/ca.pem\n");
    assertThat(ServiceAddress.resolve(Map.of("SQUALL_CONFIG", file.toString())).caFile())
        .isEqualTo(Path.of("/etc/squall/ca.pem"));
    assertThat(ServiceAddress.resolve(Map.of("SQUALL_CONFIG", file.toString(), "SQUALL_CA_FILE", "/tmp/mine.pem"))
        .caFile()).isEqualTo(Path.of("/tmp/mine.pem"));
    assertThat(ServiceAddress.resolve(Map.of("HOME", home.toString())).caFile()).isNull();
  }

  @Test
  void anUnusableCaFileIsAConfigurationError() {
    ServiceAddress address = new ServiceAddress("https://head:6820", "t", home.resolve("config"),
        home.resolve("missing.pem"));
    assertThatThrownBy(() -> new SquallClient(address)).isInstanceOf(ServiceConfigException.class)
        .hasMessage("the CA file " + home.resolve("missing.pem") + " does not exist (SQUALL_CA_FILE or 'ca-file =' in "
            + home.resolve("config") + ")");
  }

  @Test
  void aNamedConfigFileMustExistAndBeReadable() throws IOException {
    assertThatThrownBy(() -> ServiceAddress.resolve(Map.of("SQUALL_CONFIG", home.resolve("nope").toString())))
        .isInstanceOf(ServiceConfigException.class).hasMessageContaining("does not exist");
    Path bad = home.resolve("bad.conf");
    Files.writeString(bad, "url = http://a\ntokn = x\n");
    assertThatThrownBy(() -> ServiceAddress.resolve(Map.of("SQUALL_CONFIG", bad.toString())))
        .hasMessageContaining("line 2: unknown setting 'tokn'");
    Files.writeString(bad, "just words\n");
    assertThatThrownBy(() -> ServiceAddress.resolve(Map.of("SQUALL_CONFIG", bad.toString())))
        .hasMessageContaining("line 1: expected 'url = ...'");
  }

  @Test
  void urlMustBeHttp() {
    assertThatThrownBy(() -> ServiceAddress.resolve(Map.of("HOME", home.toString(), "SQUALL_URL", "head:6820")))
        .hasMessageContaining("must start with http://");
  }
}
