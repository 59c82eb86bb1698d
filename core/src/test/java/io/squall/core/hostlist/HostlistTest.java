package io.squall.core.hostlist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HostlistTest {

  @Nested
  class Expand {
    @Test
    void rangesAndSinglesInOneBracketKeepZeroPadding() {
      assertThat(Hostlist.expand("gpu[001-004,010]"))
          .containsExactly("gpu001", "gpu002", "gpu003", "gpu004", "gpu010");
    }

    @Test
    void plainNameFollowedByABracketGroup() {
      assertThat(Hostlist.expand("a1,b[1-2]")).containsExactly("a1", "b1", "b2");
    }

    @Test
    void severalBracketGroupsInOneName() {
      assertThat(Hostlist.expand("rack[1-2]-n[1-2]"))
          .containsExactly("rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2");
    }

    @Test
    void plainNames() {
      assertThat(Hostlist.expand("login1")).containsExactly("login1");
      assertThat(Hostlist.expand("node-a,node-b,head")).containsExactly("node-a", "node-b", "head");
    }

    @Test
    void suffixAfterTheBracket() {
      assertThat(Hostlist.expand("n[1-2]-ib")).containsExactly("n1-ib", "n2-ib");
    }

    @Test
    void unpaddedRangeCrossingADecade() {
      assertThat(Hostlist.expand("n[9-11]")).containsExactly("n9", "n10", "n11");
    }

    @Test
    void paddedRangeCrossingAPowerOfTen() {
      assertThat(Hostlist.expand("gpu[098-100]")).containsExactly("gpu098", "gpu099", "gpu100");
    }

    @Test
    void orderIsKeptAsWritten() {
      assertThat(Hostlist.expand("b2,a1,b1")).containsExactly("b2", "a1", "b1");
    }
  }

  @Nested
  class Compress {
    @Test
    void sortsAndMergesRuns() {
      assertThat(Hostlist.compress(List.of("gpu003", "gpu001", "gpu010", "gpu002")))
          .isEqualTo("gpu[001-003,010]");
    }

    @Test
    void keepsZeroPadding() {
      assertThat(Hostlist.compress(List.of("gpu001", "gpu002"))).isEqualTo("gpu[001-002]");
    }

    @Test
    void unpaddedNumbersSortNumerically() {
      assertThat(Hostlist.compress(List.of("n10", "n9", "n11"))).isEqualTo("n[9-11]");
    }

    @Test
    void nonConsecutiveNumbers() {
      assertThat(Hostlist.compress(List.of("n1", "n3", "n5"))).isEqualTo("n[1,3,5]");
    }

    @Test
    void mixedPrefixesAndPlainNames() {
      assertThat(Hostlist.compress(List.of("b1", "a2", "login", "a1", "b2")))
          .isEqualTo("a[1-2],b[1-2],login");
    }

    @Test
    void singleNameHasNoBrackets() {
      assertThat(Hostlist.compress(List.of("gpu007"))).isEqualTo("gpu007");
      assertThat(Hostlist.compress(List.of("b1", "a1"))).isEqualTo("a1,b1");
    }

    @Test
    void dropsDuplicates() {
      assertThat(Hostlist.compress(List.of("n1", "n2", "n1"))).isEqualTo("n[1-2]");
    }

    @Test
    void emptyList() {
      assertThat(Hostlist.compress(List.of())).isEmpty();
    }

    /**
     * Slurm's hostlist treats gpu099 and gpu100 as the same width (three digits), so
     * "scontrol show hostlist gpu098,gpu099,gpu100" prints gpu[098-100]. Squall gives the
     * unpadded gpu100 its own group; see the report.
     */
    @Test
    void paddedRunCrossingAPowerOfTenStaysOneRangeAsInSlurm() {
      assertThat(Hostlist.compress(List.of("gpu098", "gpu099", "gpu100"))).isEqualTo("gpu[098-100]");
    }
  }

  @Nested
  class RoundTrip {
    @ParameterizedTest
    @ValueSource(strings = {"gpu[001-004,010]", "a[1-2],b1", "n[1-3,5]", "node[7-12]", "cpu[01-02],gpu[1-4],login"})
    void compressOfExpandGivesTheCanonicalForm(String expression) {
      assertThat(Hostlist.compress(Hostlist.expand(expression))).isEqualTo(expression);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rack[1-2]-n[1-2]", "b2,a1,b1,a1", "x[3,1,2]"})
    void expandOfCompressKeepsTheSameHosts(String expression) {
      List<String> hosts = Hostlist.expand(expression);

      assertThat(Hostlist.expand(Hostlist.compress(hosts))).containsExactlyInAnyOrderElementsOf(
          hosts.stream().distinct().toList());
    }

    /** See {@link Compress#paddedRunCrossingAPowerOfTenStaysOneRangeAsInSlurm()}. */
    @Test
    void paddedRangeCrossingAPowerOfTenRoundTripsAsInSlurm() {
      assertThat(Hostlist.compress(Hostlist.expand("gpu[098-100]"))).isEqualTo("gpu[098-100]");
    }
  }

  @Nested
  class Numbers {
    @Test
    void runsOfSortedNumbers() {
      assertThat(Hostlist.formatRuns(List.of(1, 3, 5, 6, 7), 0)).isEqualTo("1,3,5-7");
      assertThat(Hostlist.formatRuns(List.of(1L, 2L, 3L, 7L), 3)).isEqualTo("001-003,007");
      assertThat(Hostlist.formatRuns(List.of(), 3)).isEmpty();
    }

    @Test
    void padding() {
      assertThat(Hostlist.pad(7, 3)).isEqualTo("007");
      assertThat(Hostlist.pad(12345, 3)).isEqualTo("12345");
      assertThat(Hostlist.pad(0, 0)).isEqualTo("0");
    }
  }

  @Nested
  class Errors {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "gpu[1-2      | unbalanced '[' in 'gpu[1-2'",
        "gpu1-2]      | unbalanced ']' in 'gpu1-2]'",
        "a[1-2]],b    | unbalanced ']' in 'a[1-2]],b'",
        "gpu[4-2]     | range '4-2' in 'gpu[4-2]' goes backwards",
        "gpu[a-b]     | bad range 'a-b' in 'gpu[a-b]': expected N or N-M",
        "gpu[1-2-3]   | bad range '1-2-3' in 'gpu[1-2-3]': expected N or N-M",
        "gpu[]        | bad range '' in 'gpu[]': expected N or N-M",
        "a,,b         | empty host name in 'a,,b'",
        "gpu[1-70000] | range '1-70000' in 'gpu[1-70000]' is too large",
        "a[0-65535]b[0-65535] | 'a[0-65535]b[0-65535]' names more than 65536 hosts",
        "a[0-40000,0-40000] | 'a[0-40000,0-40000]' names more than 65536 hosts",
        "a[0-40000],b[0-40000] | 'a[0-40000],b[0-40000]' names more than 65536 hosts",
        "a[0-65535],b | 'a[0-65535],b' names more than 65536 hosts"})
    void refusedExpressions(String expression, String message) {
      assertThatThrownBy(() -> Hostlist.expand(expression))
          .isInstanceOf(HostlistException.class)
          .hasMessage(message);
    }

    @Test
    void upToMaxRangeNamesAreFine() {
      assertThat(Hostlist.expand("a[0-255]b[0-255]")).hasSize(Hostlist.MAX_RANGE);
    }

    @Test
    void hostlistExceptionIsAnIllegalArgumentException() {
      assertThatThrownBy(() -> Hostlist.expand("gpu[4-2]")).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
