package io.squall.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The agent token, read from a file only its owner may read. A token in the environment can be
 * read from {@code /proc/PID/environ} by every process of the same user, and one on the command
 * line by every user; a 0600 file is read once, at start, and guarded by the kernel.
 */
public final class TokenFile {
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

  private TokenFile() {}

  /**
   * The token: the file's text without its trailing line break.
   *
   * @throws AgentArgs.UsageException when the file is missing, empty, or open to others (as ssh
   *     refuses a private key others can read)
   */
  static String read(Path file) throws AgentArgs.UsageException {
    try {
      Set<PosixFilePermission> open = EnumSet.copyOf(Files.getPosixFilePermissions(file));
      open.retainAll(OTHERS);
      if (!open.isEmpty()) {
        throw new AgentArgs.UsageException("--token-file " + file + " may be read or written by others ("
            + open + "): chmod 600 it");
      }
      String token = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (token.isEmpty()) {
        throw new AgentArgs.UsageException("--token-file " + file + " is empty");
      }
      return token;
    } catch (IOException e) {
      throw new AgentArgs.UsageException("--token-file " + file + ": cannot read it (" + e + ")");
    }
  }

  /** Writes {@code token} to {@code file} with mode 0600 from the start: it is never readable by others. */
  public static void write(Path file, String token) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(
        EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)));
    Files.writeString(file, token, StandardCharsets.UTF_8);
  }
}
