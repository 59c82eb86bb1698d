package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GetoptTest {
  private final Getopt getopt = new Getopt(List.of(
      Getopt.Option.value('u', "user"), Getopt.Option.flag('h', "noheader"), Getopt.Option.flag('l', "long"),
      Getopt.Option.value('\0', "name"), Getopt.Option.value('\0', "nodes")));

  @Test
  void shortLongAttachedSeparateAndGrouped() {
    Getopt.Parsed p = getopt.parse(List.of("-ubob", "--user", "carol", "-hl", "--name=x", "-u", "dave,erin", "op"));
    assertThat(p.list("user")).containsExactly("bob", "carol", "dave", "erin");
    assertThat(p.last("user")).isEqualTo("dave,erin");
    assertThat(p.has("noheader")).isTrue();
    assertThat(p.has("long")).isTrue();
    assertThat(p.last("name")).isEqualTo("x");
    assertThat(p.operands()).containsExactly("op");
  }

  @Test
  void aGroupEndsAtAnOptionWithAValue() {
    Getopt.Parsed p = getopt.parse(List.of("-hubob"));
    assertThat(p.has("noheader")).isTrue();
    assertThat(p.last("user")).isEqualTo("bob");
  }

  @Test
  void operandsAnywhereAndDoubleDashEndsOptions() {
    Getopt.Parsed p = getopt.parse(List.of("42", "-h", "--", "-u", "43"));
    assertThat(p.operands()).containsExactly("42", "-u", "43");
    assertThat(p.has("user")).isFalse();
  }

  @Test
  void uniquePrefixesWorkAmbiguousOnesDoNot() {
    assertThat(getopt.parse(List.of("--noh")).has("noheader")).isTrue();
    assertThatThrownBy(() -> getopt.parse(List.of("--n=1"))).hasMessageContaining("is ambiguous")
        .hasMessageContaining("--name").hasMessageContaining("--nodes");
  }

  @Test
  void mistakesSayWhatGetoptSays() {
    assertThatThrownBy(() -> getopt.parse(List.of("-x"))).hasMessage("invalid option -- 'x'");
    assertThatThrownBy(() -> getopt.parse(List.of("--bogus"))).hasMessage("unrecognized option '--bogus'");
    assertThatThrownBy(() -> getopt.parse(List.of("-u"))).hasMessage("option requires an argument -- 'u'");
    assertThatThrownBy(() -> getopt.parse(List.of("--user"))).hasMessage("option '--user' requires an argument");
    assertThatThrownBy(() -> getopt.parse(List.of("--long=yes"))).hasMessage("option '--long' doesn't allow an argument");
  }
}
