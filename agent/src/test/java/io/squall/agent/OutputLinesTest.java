package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutputLinesTest {
  private static List<String> split(String text, int maxBytes) {
    List<String> pieces = new ArrayList<>();
    OutputLines.split(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), maxBytes, pieces::add);
    return pieces;
  }

  @Test
  void linesKeepTheirNewlineAndAnUnfinishedLastLineIsSentToo() {
    assertThat(split("one\ntwo\n\nthree", 1024)).containsExactly("one\n", "two\n", "\n", "three");
  }

  @Test
  void aLongLineIsCutBetweenCharactersNeverInsideOne() {
    // 'a' (1 byte) then 'é' (2 bytes each): a cut at 4 bytes would split the second 'é'.
    assertThat(split("aééé\n", 4)).containsExactly("aé", "éé", "\n");
    assertThat(split("€€\n", 4)).containsExactly("€", "€\n");
  }

  @Test
  void aLongLineOfOneByteCharactersIsCutAtTheLimit() {
    assertThat(split("abcdefghij\n", 4)).containsExactly("abcd", "efgh", "ij\n");
  }
}
