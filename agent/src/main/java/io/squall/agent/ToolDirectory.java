package io.squall.agent;

import static io.squall.core.provider.AgentBootstrap.quote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * The agent's {@code bin} directory, first on every batch script's PATH: {@code srun},
 * {@code scontrol} and {@code squall} wrappers that run {@link Tools} on this agent's JVM and
 * class path.
 */
final class ToolDirectory {
  static final List<String> TOOLS = List.of("srun", "scontrol", "squall");

  /** Read by srun: where this node's agent keeps its jobs (for step numbers). */
  static final String WORK_DIR_PROPERTY = "squall.agent.work-dir";

  private ToolDirectory() {}

  /** Writes (or rewrites) the wrappers under {@code workDir/bin}; answers that directory. */
  static Path write(Path workDir) throws IOException {
    Path bin = workDir.resolve("bin");
    Files.createDirectories(bin);
    for (String tool : TOOLS) {
      Path target = bin.resolve(tool);
      // Written aside and moved into place: a job that runs srun right now never sees half a file.
      Path temp = Files.createTempFile(bin, "." + tool, ".tmp");
      Files.writeString(temp, wrapper(tool, JavaCommand.executable(), JavaCommand.classPath(), workDir));
      Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
    return bin;
  }

  /** The wrapper script. A tool is a short-lived JVM, so it asks for the quickest start. */
  static String wrapper(String tool, String java, String classPath, Path workDir) {
    return "#!/bin/sh\n"
        + "# Written by the Squall agent: " + tool + " inside a job, served by this node's agent.\n"
        + "exec " + quote(java) + " " + String.join(" ", JavaCommand.QUICK_START) + " -Xshare:auto"
        + " -D" + WORK_DIR_PROPERTY + "=" + quote(workDir.toAbsolutePath().toString())
        + " -cp " + quote(classPath) + " " + Tools.class.getName() + " " + tool + " \"$@\"\n";
  }
}
