package io.squall.providers.local;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.Offering;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * One local node: its agent process and, in {@code BASE/<node>/machine.properties}, what a
 * controller needs to find that process again after it was itself killed: the agent's pid and
 * start time (so a reused pid is not mistaken for it), the command that starts it (to restart it
 * as systemd would), the controller it reports to and the instance it is. A local "machine"
 * outlives a controller as a cloud machine does.
 *
 * @param controllerUrl the controller the agent was started for
 */
record LocalMachine(Instance instance, String controllerUrl, ProcessHandle agent, Path dir, List<String> command) {
  static final String RECORD = "machine.properties";

  /** Starts the agent in {@code dir} and writes the record. */
  static LocalMachine start(Path dir, List<String> command, Instance instance, String controllerUrl)
      throws IOException {
    Path log = dir.resolve("agent.log");
    if (!Files.exists(log)) {
      Files.createFile(log, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    Process p = new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
    LocalMachine m = new LocalMachine(instance, controllerUrl, p.toHandle(), dir, List.copyOf(command));
    m.write();
    return m;
  }

  /** The same agent command again, for the same instance: a crashed agent restarted in place. */
  LocalMachine restart() throws IOException {
    return start(dir, command, instance, controllerUrl);
  }

  /**
   * The machine whose record is in {@code dir}, if its agent is still the process the record
   * names; empty when there is no record or that agent is gone.
   */
  static Optional<LocalMachine> find(Path dir) {
    Path file = dir.resolve(RECORD);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
      long pid = Long.parseLong(p.getProperty("pid"));
      long started = Long.parseLong(p.getProperty("started"));
      Optional<ProcessHandle> agent = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
          .filter(h -> h.info().startInstant().map(s -> s.toEpochMilli() == started).orElse(false));
      if (agent.isEmpty()) {
        return Optional.empty();
      }
      String name = dir.getFileName().toString();
      Offering offering = new Offering(LocalProvider.INSTANCE_TYPE, p.getProperty("zone"),
          CapacityType.valueOf(p.getProperty("capacity", CapacityType.ON_DEMAND.name())),
          Double.parseDouble(p.getProperty("usd-per-hour", "0")), Availability.AVAILABLE);
      Instance instance = new Instance(name, name, p.getProperty("cluster"), p.getProperty("partition"),
          blankToNull(p.getProperty("placement-group")), p.getProperty("launch"), offering, InstanceState.RUNNING);
      List<String> command = Arrays.asList(p.getProperty("command").split("\0", -1));
      return Optional.of(new LocalMachine(instance, p.getProperty("controller"), agent.get(), dir, command));
    } catch (IOException | RuntimeException unreadable) {
      return Optional.empty(); // a record half written by a controller that died then: nothing to adopt
    }
  }

  private void write() throws IOException {
    Properties p = new Properties();
    p.setProperty("pid", Long.toString(agent.pid()));
    p.setProperty("started", Long.toString(agent.info().startInstant().orElse(Instant.EPOCH).toEpochMilli()));
    p.setProperty("controller", controllerUrl);
    p.setProperty("cluster", instance.cluster());
    p.setProperty("partition", instance.partition());
    p.setProperty("placement-group", instance.placementGroup() == null ? "" : instance.placementGroup());
    p.setProperty("launch", instance.launchToken());
    p.setProperty("zone", instance.offering().zone());
    p.setProperty("capacity", instance.offering().capacityType().name());
    p.setProperty("usd-per-hour", Double.toString(instance.offering().pricePerHour()));
    p.setProperty("command", String.join("\0", command));
    Path temp = dir.resolve(RECORD + ".tmp");
    try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
      p.store(out, "a local Squall node: its agent process, for the next controller");
    }
    Files.move(temp, dir.resolve(RECORD), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
