package io.squall.providers.local;

import io.squall.agent.AgentMain;
import io.squall.agent.OrphanSweep;
import io.squall.agent.TokenFile;
import io.squall.agent.JavaCommand;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provider.SpotPrice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Nodes as agent processes on this host: the embedded default, no cloud account needed. Each
 * node is one agent JVM with its own directory {@code BASE/<node>} (its {@code bin/}, its
 * {@code jobs/} and its {@code agent.log}); the agents register with the controller like any
 * node's would. GPUs are whatever the node template says (each agent is given {@code --gpus}, so
 * nvidia-smi does not decide, and several agents on one host each offer their own).
 *
 * <p>It sells one instance type, {@value #INSTANCE_TYPE}, on demand and free, in the zones of its
 * {@link Settings}. To show elastic behaviour on a laptop it can pretend: zones with no capacity
 * (every launch there fails as a cloud's would) and a boot delay before each agent starts.
 *
 * <p>Thread-safe.
 */
public final class LocalProvider implements NodeProvider {
  public static final String INSTANCE_TYPE = "local";

  /** How long a crashed agent stays down before it is started again (systemd's RestartSec). */
  private static final Duration RESTART_DELAY = Duration.ofSeconds(1);

  /** How long an agent gets to kill its jobs and exit after SIGTERM, before SIGKILL. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);

  /** Node names become directory names, so only names Slurm would accept pass. */
  private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

  /**
   * @param zones the zones it offers {@value #INSTANCE_TYPE} in
   * @param noCapacityZones zones where every launch fails with insufficient capacity
   * @param bootDelay how long a node "boots" before its agent starts
   * @param jvmArgs the agents' JVM options
   * @param launchFailureRate the share of launches that fail with a transient error, drawn from
   *     {@code failureSeed} (chaos tests: a cloud API that errs)
   * @param onDemandUsdPerHour what a node costs on demand, per hour (pretend money for the demo)
   * @param spotUsdPerHour what a node costs as spot, per hour; null to sell no spot
   */
  public record Settings(List<String> zones, Set<String> noCapacityZones, Duration bootDelay, List<String> jvmArgs,
      double launchFailureRate, long failureSeed, double onDemandUsdPerHour, Double spotUsdPerHour) {
    public Settings {
      zones = List.copyOf(zones);
      noCapacityZones = Set.copyOf(noCapacityZones);
      jvmArgs = List.copyOf(jvmArgs);
      if (zones.isEmpty()) {
        throw new IllegalArgumentException("the local provider needs at least one zone");
      }
      if (launchFailureRate < 0 || launchFailureRate > 1) {
        throw new IllegalArgumentException("the launch failure rate is from 0 to 1, not " + launchFailureRate);
      }
      if (!(onDemandUsdPerHour >= 0) || Double.isInfinite(onDemandUsdPerHour)
          || spotUsdPerHour != null && (!(spotUsdPerHour >= 0) || spotUsdPerHour.isInfinite())) {
        throw new IllegalArgumentException("a price is a finite number of dollars >= 0, not " + onDemandUsdPerHour
            + " on demand and " + spotUsdPerHour + " as spot");
      }
    }

    /** Free on demand, no spot, launches that never fail but where the settings say so. */
    public Settings(List<String> zones, Set<String> noCapacityZones, Duration bootDelay, List<String> jvmArgs) {
      this(zones, noCapacityZones, bootDelay, jvmArgs, 0, 0, 0, null);
    }

    /**
     * One zone, {@code local}, instant boot, and {@link JavaCommand#QUICK_START}: a local agent
     * is mostly idle and mostly waiting on I/O, so a small, quick-starting JVM beats a fast one
     * when there are many of them on one host.
     */
    public static Settings defaults() {
      return new Settings(List.of("local"), Set.of(), Duration.ZERO, JavaCommand.QUICK_START);
    }
  }

  private final Path baseDir;
  private final Settings settings;
  private final Map<String, LocalMachine> machines = new TreeMap<>();
  private final Map<String, List<Instance>> launches = new LinkedHashMap<>();
  private final Deque<ProviderException> injected = new ArrayDeque<>();
  private final Random failures;

  public LocalProvider(Path baseDir) {
    this(baseDir, Settings.defaults());
  }

  private final ScheduledExecutorService restarts = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "local-agent-restarts");
    t.setDaemon(true);
    return t;
  });

  /**
   * Adopts the agents a previous controller left running under {@code baseDir} (a controller
   * killed with -9 leaves its local nodes running, as a cloud's machines would be): they are
   * listed, and kept by a launch for the same controller, instead of getting a second agent.
   */
  public LocalProvider(Path baseDir, Settings settings) {
    this.baseDir = baseDir.toAbsolutePath();
    this.settings = settings;
    this.failures = new Random(settings.failureSeed());
    if (Files.isDirectory(this.baseDir)) {
      try (var dirs = Files.list(this.baseDir)) {
        for (Path d : dirs.sorted().toList()) {
          Optional<LocalMachine> alive = LocalMachine.find(d);
          if (alive.isPresent()) {
            watch(alive.get());
          } else if (Files.isDirectory(d)) {
            // A node whose agent died with no controller to restart it: the "machine" is gone,
            // and so must be what its jobs left running, before their jobs are requeued.
            OrphanSweep.kill(d);
          }
        }
      } catch (IOException e) {
        throw new ProviderException(ProviderException.Kind.TRANSIENT, "cannot list " + this.baseDir + ": " + e, e);
      }
    }
  }

  /**
   * Keeps a machine, and restarts its agent when it dies of itself (a crash, a kill -9) after
   * {@link #RESTART_DELAY}, as systemd does a node's agent: the restarted agent kills what its
   * predecessor's jobs left running, then registers again. A node stopped on purpose
   * ({@link #terminate}, {@link #close}) is no longer kept, so it stays stopped; nor is an agent
   * that stood down because another registered for its node ({@link AgentMain#SUPERSEDED_FILE}).
   */
  private synchronized void watch(LocalMachine m) {
    machines.put(m.instance().nodeName(), m);
    m.agent().onExit().thenRun(() -> restarts.schedule(() -> restart(m), RESTART_DELAY.toMillis(),
        TimeUnit.MILLISECONDS));
  }

  private synchronized void restart(LocalMachine died) {
    if (machines.get(died.instance().nodeName()) != died) {
      return; // stopped on purpose, or replaced
    }
    if (Files.exists(died.dir().resolve(AgentMain.SUPERSEDED_FILE))) {
      // It stood down for another agent of its node: started again, it would take the node back.
      machines.remove(died.instance().nodeName());
      return;
    }
    try {
      watch(died.restart());
    } catch (IOException e) {
      machines.remove(died.instance().nodeName());
    }
  }

  @Override
  public String name() {
    return "local";
  }

  /**
   * {@value #INSTANCE_TYPE} on demand in each zone at the settings' price (free by default), and
   * as spot when the settings price it. A no-capacity zone is listed as available, as a cloud
   * lists a type its zone sells: the lack of capacity shows only when a launch fails.
   */
  @Override
  public List<Offering> offerings(List<String> instanceTypes) {
    return offerings(settings, instanceTypes);
  }

  /** What a local provider with these settings sells ({@link #offerings(List)}); the what-if's cloud sells the same. */
  public static List<Offering> offerings(Settings settings, List<String> instanceTypes) {
    if (!instanceTypes.contains(INSTANCE_TYPE)) {
      return List.of();
    }
    List<Offering> out = new ArrayList<>();
    for (String zone : settings.zones().stream().sorted().toList()) {
      out.add(new Offering(INSTANCE_TYPE, zone, CapacityType.ON_DEMAND, settings.onDemandUsdPerHour(),
          Availability.AVAILABLE));
      if (settings.spotUsdPerHour() != null) {
        out.add(new Offering(INSTANCE_TYPE, zone, CapacityType.SPOT, settings.spotUsdPerHour(), Availability.AVAILABLE));
      }
    }
    return out;
  }

  /** Makes the next call to {@link #launch} fail with this error (tests and demos). */
  public synchronized void failNextLaunch(ProviderException error) {
    injected.add(error);
  }

  /**
   * Starts an agent process per node, its output appended to {@code BASE/<node>/agent.log}, after
   * the boot delay. Returns once the processes run; each node is usable when its agent has
   * registered. A node whose agent is alive is left alone (and reported as it is).
   */
  @Override
  public synchronized List<Instance> launch(LaunchRequest request) {
    List<Instance> earlier = launches.get(request.idempotencyToken());
    if (earlier != null) {
      return earlier;
    }
    if (!injected.isEmpty()) {
      throw injected.poll();
    }
    if (failures.nextDouble() < settings.launchFailureRate()) {
      throw new ProviderException(ProviderException.Kind.TRANSIENT, "injected launch failure (launch-failure-rate "
          + settings.launchFailureRate() + ")");
    }
    Offering offering = request.offering();
    if (!INSTANCE_TYPE.equals(offering.instanceType()) || !settings.zones().contains(offering.zone())) {
      throw new ProviderException(ProviderException.Kind.INVALID, "the local provider offers only instance type '"
          + INSTANCE_TYPE + "' in zones " + settings.zones() + ", not " + offering.key());
    }
    if (settings.noCapacityZones().contains(offering.zone())) {
      throw new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY, "InsufficientInstanceCapacity: "
          + "zone " + offering.zone() + " has no local capacity (configured as such)");
    }
    for (NodeLaunch launch : request.nodes()) {
      if (!NODE_NAME.matcher(launch.node().name()).matches()) {
        throw new ProviderException(ProviderException.Kind.INVALID, "node name '" + launch.node().name()
            + "' cannot name a directory; use letters, digits, '_', '.' and '-'");
      }
    }
    List<Instance> made = new ArrayList<>();
    List<String> startedNow = new ArrayList<>();
    try {
      for (NodeLaunch launch : request.nodes()) {
        String name = launch.node().name();
        LocalMachine running = machines.get(name);
        if (running != null && running.agent().isAlive()) {
          if (running.controllerUrl().equals(launch.controllerUrl())) {
            made.add(running.instance());
            continue;
          }
          // An agent of a controller that listened elsewhere: it could never report to this one.
          // It goes, with its jobs, before the new agent starts: a job never has two live copies.
          machines.remove(name);
          stop(List.of(running.agent()));
        }
        Instance instance = new Instance(name, name, request.cluster(), request.partition(), request.placementGroup(),
            request.idempotencyToken(), offering, InstanceState.RUNNING);
        watch(start(launch, instance));
        made.add(instance);
        startedNow.add(name);
      }
    } catch (ProviderException e) {
      // All or nothing: what this call started goes again (machines that were already running stay).
      stop(startedNow.stream().map(name -> machines.remove(name).agent()).toList());
      throw e;
    }
    launches.put(request.idempotencyToken(), List.copyOf(made));
    return List.copyOf(made);
  }

  private LocalMachine start(NodeLaunch launch, Instance instance) {
    String name = launch.node().name();
    Path dir = baseDir.resolve(name);
    try {
      Files.createDirectories(dir);
      List<String> command = new ArrayList<>();
      if (!settings.bootDelay().isZero()) {
        // The shell sleeps, then becomes the agent: one process, killed as one.
        command.addAll(List.of("/bin/sh", "-c", "sleep " + settings.bootDelay().toMillis() / 1000.0
            + " && exec \"$0\" \"$@\""));
      }
      Path tokenFile = dir.resolve(AgentCommand.TOKEN_FILE);
      TokenFile.write(tokenFile, launch.agentToken());
      command.addAll(AgentCommand.forNode(launch, dir, tokenFile, settings.jvmArgs()));
      return LocalMachine.start(dir, command, instance, launch.controllerUrl());
    } catch (IOException e) {
      throw new ProviderException(ProviderException.Kind.TRANSIENT, "node " + name + ": cannot start its agent in "
          + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Stops a node: its agent gets SIGTERM (it then kills its jobs' processes), and SIGKILL after
   * 10 s, as does anything the agent started that is still alive. Returns when the agent has
   * exited. Idempotent: an unknown or stopped node counts as done. Its directory is kept, for
   * its log.
   */
  @Override
  public void terminate(Instance instance) {
    LocalMachine machine;
    synchronized (this) {
      machine = machines.remove(instance.nodeName());
    }
    if (machine != null) {
      stop(List.of(machine.agent()));
    }
  }

  /** The cluster's nodes whose agents are alive, in name order. */
  @Override
  public synchronized List<Instance> list(String cluster) {
    return machines.values().stream().map(LocalMachine::instance)
        .filter(i -> cluster.equals(i.cluster()))
        .sorted(Comparator.comparing(Instance::nodeName))
        .toList();
  }

  /** Local nodes are never spot. */
  @Override
  public List<SpotPrice> spotPrices(List<String> instanceTypes) {
    return List.of();
  }

  /** Stops every node this provider started, all at once, as {@link #terminate} does one. */
  @Override
  public void close() {
    List<ProcessHandle> all;
    synchronized (this) {
      all = machines.values().stream().map(LocalMachine::agent).toList();
      machines.clear();
    }
    restarts.shutdownNow();
    stop(all);
  }

  private static void stop(List<ProcessHandle> stopping) {
    List<ProcessHandle> started = new ArrayList<>();
    for (ProcessHandle agent : stopping) {
      // Noted before the agent goes: once it has, its children are no one's descendants.
      agent.descendants().forEach(started::add);
      agent.destroy();
    }
    long deadline = System.nanoTime() + STOP_GRACE.toNanos();
    for (ProcessHandle agent : stopping) {
      try {
        long left = deadline - System.nanoTime();
        agent.onExit().get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        agent.destroyForcibly();
        awaitExit(agent);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        agent.destroyForcibly();
      }
    }
    started.forEach(ProcessHandle::destroyForcibly);
  }

  private static void awaitExit(ProcessHandle p) {
    try {
      p.onExit().get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // A process that survives SIGKILL for 10 s is the kernel's business.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
