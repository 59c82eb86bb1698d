package io.squall.agent;

import io.squall.agent.Protocol.OutputChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One output file of a batch step, shipped to the controller as it grows.
 *
 * <p>Offsets are bytes. The controller appends a chunk only at the size it already has and
 * answers that size; an answer other than "what you sent was appended" means it holds a
 * different amount, and shipping goes on from there, so duplicates and gaps heal. Chunks end on
 * a UTF-8 character boundary, because {@code data} is text, except in the final pass after the
 * script ended, when whatever bytes remain go as they are.
 */
final class ShippedFile {
  static final int DEFAULT_CHUNK_BYTES = 64 * 1024;
  /** One pump sends at most this many chunks, so that one busy job cannot hold the shipper. */
  private static final int MAX_CHUNKS_PER_PUMP = 64;

  /** Sends one chunk; answers the controller's {@code next_offset}. */
  @FunctionalInterface
  interface OutputPost {
    /** @throws IOException when the controller is unreachable or does not answer 200 */
    long post(OutputChunk chunk) throws IOException;
  }

  private final String job;
  private final String stream;
  private final Path path;
  private final int chunkBytes;
  /** Bytes of the file shipped so far. */
  private long filePosition;
  /**
   * The controller's size. It equals {@link #filePosition} unless the file holds invalid UTF-8,
   * which the text encoding replaces and so changes in length.
   */
  private long remoteOffset;

  ShippedFile(String job, String stream, Path path, int chunkBytes) {
    this.job = job;
    this.stream = stream;
    this.path = path;
    this.chunkBytes = chunkBytes;
  }

  String stream() {
    return stream;
  }

  synchronized long shipped() {
    return filePosition;
  }

  /**
   * Ships what the file holds beyond what the controller has.
   *
   * @param finalPass the writer has ended: a trailing partial character is sent as it is
   * @return whether the controller now has the whole file
   * @throws IOException when the file cannot be read or the controller does not take a chunk
   */
  synchronized boolean pump(OutputPost post, boolean finalPass) throws IOException {
    try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
      for (int round = 0; round < MAX_CHUNKS_PER_PUMP; round++) {
        long size = file.size();
        if (filePosition >= size) {
          return true;
        }
        byte[] bytes = read(file, filePosition, (int) Math.min(chunkBytes, size - filePosition));
        boolean endOfFile = filePosition + bytes.length >= size;
        int usable = finalPass && endOfFile ? bytes.length : completeCharacters(bytes);
        if (usable == 0) {
          return false;
        }
        String data = new String(bytes, 0, usable, StandardCharsets.UTF_8);
        long sent = data.getBytes(StandardCharsets.UTF_8).length;
        long next = post.post(new OutputChunk(job, stream, remoteOffset, data));
        if (next == remoteOffset + sent) {
          filePosition += usable;
          remoteOffset = next;
        } else if (next == remoteOffset) {
          return false;
        } else {
          filePosition = next;
          remoteOffset = next;
        }
      }
      return false;
    } catch (NoSuchFileException e) {
      // The job removed its own output file: there is nothing (more) to ship.
      return true;
    }
  }

  private static byte[] read(FileChannel file, long position, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      int n = file.read(buffer, position + buffer.position());
      if (n < 0) {
        break;
      }
    }
    byte[] bytes = new byte[buffer.position()];
    buffer.flip().get(bytes);
    return bytes;
  }

  /** The length of the longest prefix that does not end inside a multi-byte UTF-8 character. */
  static int completeCharacters(byte[] bytes) {
    int end = bytes.length;
    // A character is at most 4 bytes: look back at most 3 continuation bytes for its lead byte.
    for (int back = 1; back <= Math.min(4, end); back++) {
      int b = bytes[end - back] & 0xff;
      if ((b & 0xc0) == 0x80) {
        continue;
      }
      int length = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return back >= length ? end : end - back;
    }
    return end;
  }
}
