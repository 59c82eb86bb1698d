package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.agent.Protocol.OutputChunk;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShippedFileTest {
  @TempDir Path dir;

  /** The controller's output store: appends only at its size, answers its size; records offsets. */
  static final class Store implements ShippedFile.OutputPost {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final List<Long> offsets = new ArrayList<>();
    final List<String> chunks = new ArrayList<>();
    boolean down;

    @Override
    public long post(OutputChunk chunk) throws IOException {
      if (down) {
        throw new IOException("connection refused");
      }
      offsets.add(chunk.offset());
      chunks.add(chunk.data());
      byte[] data = chunk.data().getBytes(StandardCharsets.UTF_8);
      if (chunk.offset() == bytes.size()) {
        bytes.write(data, 0, data.length);
      }
      return bytes.size();
    }

    String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }

  private Path file(String text) throws IOException {
    return Files.writeString(dir.resolve("out"), text);
  }

  private void append(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardOpenOption.APPEND);
  }

  @Test
  void shipsWhatTheFileGainsFromWhereTheLastChunkEnded() throws Exception {
    Path out = file("one\n");
    Store store = new Store();
    ShippedFile shipped = new ShippedFile("42", "stdout", out, 1024);

    assertThat(shipped.pump(store, false)).isTrue();
    append(out, "two\n");
    assertThat(shipped.pump(store, false)).isTrue();
    assertThat(shipped.pump(store, false)).isTrue();

    assertThat(store.text()).isEqualTo("one\ntwo\n");
    assertThat(store.offsets).containsExactly(0L, 4L);
    assertThat(shipped.shipped()).isEqualTo(8);
  }

  @Test
  void resumesFromWhatTheControllerAlreadyHas() throws Exception {
    Path out = file("hello world\n");
    Store store = new Store();
    store.bytes.write("hello".getBytes(StandardCharsets.UTF_8));
    ShippedFile shipped = new ShippedFile("42", "stdout", out, 1024);

    assertThat(shipped.pump(store, false)).isTrue();

    assertThat(store.text()).isEqualTo("hello world\n");
    assertThat(store.offsets).containsExactly(0L, 5L);
  }

  @Test
  void resendsWhatAControllerLost() throws Exception {
    Path out = file("abc\n");
    Store store = new Store();
    ShippedFile shipped = new ShippedFile("42", "stdout", out, 1024);
    shipped.pump(store, false);

    store.bytes.reset();
    append(out, "def\n");
    shipped.pump(store, false);

    assertThat(store.text()).isEqualTo("abc\ndef\n");
  }

  @Test
  void chunksEndOnCharacterBoundariesUntilTheFinalPass() throws Exception {
    // 'é' and 'ö' are two bytes each; with 4-byte chunks some reads end inside one.
    String text = "héllo wörld ✓";
    Path out = file(text);
    Store store = new Store();
    ShippedFile shipped = new ShippedFile("42", "stdout", out, 4);

    while (!shipped.pump(store, false)) {
      assertThat(store.chunks).isNotEmpty();
    }

    assertThat(store.text()).isEqualTo(text);
    assertThat(store.chunks).allSatisfy(c -> assertThat(c).doesNotContain("\uFFFD"));
  }

  @Test
  void aTrailingPartialCharacterWaitsForTheFinalPass() throws Exception {
    Path out = dir.resolve("out");
    Files.write(out, new byte[] {'a', (byte) 0xc3});
    Store store = new Store();
    ShippedFile shipped = new ShippedFile("42", "stdout", out, 1024);

    assertThat(shipped.pump(store, false)).isFalse();
    assertThat(store.text()).isEqualTo("a");
    assertThat(shipped.pump(store, true)).isTrue();
    assertThat(shipped.shipped()).isEqualTo(2);
  }

  @Test
  void aFailedPostKeepsThePositionForTheNextPump() throws Exception {
    Path out = file("abc\n");
    Store store = new Store();
    store.down = true;
    ShippedFile shipped = new ShippedFile("42", "stdout", out, 1024);

    assertThatThrownBy(() -> shipped.pump(store, false)).isInstanceOf(IOException.class);
    store.down = false;
    assertThat(shipped.pump(store, false)).isTrue();

    assertThat(store.text()).isEqualTo("abc\n");
  }

  @Test
  void utf8PrefixLengths() {
    assertThat(ShippedFile.completeCharacters("abc".getBytes(StandardCharsets.UTF_8))).isEqualTo(3);
    byte[] e = "é".getBytes(StandardCharsets.UTF_8);
    assertThat(ShippedFile.completeCharacters(e)).isEqualTo(2);
    assertThat(ShippedFile.completeCharacters(new byte[] {'a', e[0]})).isEqualTo(1);
    byte[] check = "✓".getBytes(StandardCharsets.UTF_8);
    assertThat(ShippedFile.completeCharacters(new byte[] {'a', check[0], check[1]})).isEqualTo(1);
  }
}
