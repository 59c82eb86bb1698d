package io.squall.agent;

import io.squall.agent.Protocol.Heartbeat;
import io.squall.agent.Protocol.OutputChunk;
import io.squall.agent.Protocol.Registration;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One running node agent: its HTTP server, its link to the controller, its jobs. {@link #start}
 * returns once the server listens; registration goes on in the background.
 *
 * <p>Threads: HTTP requests, process watching and output pipes run on a cached pool (a task's
 * output stream holds a thread for the task's life); exit events and output on two scheduled
 * threads; registration and heartbeats on a thread of their own, so that a controller slow to
 * take output never makes the node look dead; kill-wait timers on their own thread, so that a
 * slow controller never delays a SIGKILL; the interruption watch (when {@code --interruptions}
 * names a cloud) on its own thread, so a slow metadata service delays nothing else.
 */
final class Agent implements AutoCloseable {
  private final AgentConfig config;
  private final AgentLog log;
  private final ExecutorService workers;
  private final ScheduledExecutorService controllerThreads;
  private final ScheduledExecutorService linkThread;
  private final ScheduledExecutorService timers;
  private final JobControl control;
  private final AgentServer server;
  private final ControllerLink link;
  private final CompletableFuture<Void> superseded = new CompletableFuture<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Null without {@code --interruptions}. */
  private final InterruptionWatch watch;

  private Agent(AgentConfig config, PrintStream logStream) throws IOException {
    this.config = config;
    this.log = new AgentLog(config.name(), logStream);
    this.workers = Executors.newCachedThreadPool(threads(config.name() + "-worker"));
    this.controllerThreads = Executors.newScheduledThreadPool(2, threads(config.name() + "-controller"));
    this.linkThread = Executors.newSingleThreadScheduledExecutor(threads(config.name() + "-heartbeat"));
    this.timers = Executors.newSingleThreadScheduledExecutor(threads(config.name() + "-timer"));
    Path workDir = config.workDir().toAbsolutePath();
    Path jobsDir = Files.createDirectories(workDir.resolve("jobs"));
    Path toolDir = ToolDirectory.write(workDir);
    JobUsers users = JobUsers.detect(log);
    // Before this agent takes any work: what a killed predecessor's jobs left running goes.
    OrphanSweep.run(workDir, log);
    Files.deleteIfExists(workDir.resolve(AgentMain.SUPERSEDED_FILE)); // started on purpose: it serves again
    if (users.root()) {
      // Jobs run as their users: they may pass through to their own job directory and the
      // tools, but not list what else is here (the token file is 0600 besides).
      for (Path d : List.of(workDir, jobsDir)) {
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx--x--x"));
      }
    }
    Sessions sessions = Sessions.detect();
    if (!sessions.available()) {
      log.warn("setsid not found: jobs share the agent's process group; orphaned processes may survive their job");
    }
    ControllerClient client = new ControllerClient(config.controller(), config.token(), config.caFile());
    EventOutbox outbox = new EventOutbox(config.name(), client, controllerThreads, config.retryInterval(), log);
    OutputShipping shipping = new OutputShipping(chunk -> postOutput(client, chunk), controllerThreads,
        config.retryInterval(), log);
    JobTable table = new JobTable();
    BatchLauncher launcher = new BatchLauncher(config.name(), jobsDir, toolDir, sessions,
        JobEnvironment.agentEnvironment(System.getenv(), config.caFile()), users);
    this.control = new JobControl(table, launcher, shipping, outbox, timers, workers, jobsDir,
        InstantSource.system(), log);
    this.server = AgentServer.start(config.bind(), config.port(), config.serverTls(), config.token(), control,
        new StepRunner(config.name(), workDir, sessions, users, workers, log), new CheckpointRelay(config.name(), client, log),
        workers, log);
    this.link = new ControllerLink(client, this::registration,
        () -> new Heartbeat(config.name(), server.address(), control.held()), linkThread, outbox::flushSoon,
        this::standDown, this::stray, log);
    outbox.start();
    shipping.start();
    link.start();
    this.watch = config.interruptions().source(config.name(), config.metadataUrl(), InstantSource.system())
        .map(source -> InterruptionWatch.start(source, config.name(), client,
            Executors.newSingleThreadScheduledExecutor(threads(config.name() + "-interruptions")), log))
        .orElse(null);
    log.info("agent listening on " + server.address() + "; controller " + config.controller());
  }

  /** Starts an agent; its log goes to {@code logStream}. */
  static Agent start(AgentConfig config, PrintStream logStream) throws IOException {
    return new Agent(config, logStream);
  }

  /** The agent's base address, {@code http://127.0.0.1:PORT} (https with {@code --tls-cert}). */
  URI address() {
    return URI.create(server.address());
  }

  boolean registered() {
    return link.registered();
  }

  /** Completes once another agent has taken this node over and this one has stopped (killing its jobs). */
  CompletableFuture<Void> superseded() {
    return superseded;
  }

  /**
   * A job the controller does not run here any more: its clean-up never came (the controller died
   * first). Not waited for: the heartbeat thread comes here, and the job stays listed while it dies.
   */
  private void stray(String key) {
    log.warn("job " + key + ": the controller does not run it on this node: killing what is left of it");
    control.delete(key, null, Duration.ZERO);
  }

  /**
   * Another agent registered for this node (a second copy started by mistake, or a clone of the
   * machine): the controller now speaks to that one only. This one stops, killing its jobs'
   * processes so that no job runs twice, off the heartbeat thread that {@link #close} waits for.
   */
  private void standDown(String why) {
    log.warn("another agent now serves " + config.name() + " (" + why + "): stopping, and killing this agent's jobs");
    try {
      Files.writeString(config.workDir().resolve(AgentMain.SUPERSEDED_FILE), why + "\n");
    } catch (IOException e) {
      log.warn("cannot record that this agent stood down: " + e.getMessage());
    }
    Thread t = new Thread(() -> {
      close();
      superseded.complete(null);
    }, config.name() + "-stand-down");
    t.start();
  }

  /** Stops serving and kills every job's processes: the node goes away with its agent. Once. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return; // stood down already (then the process exits, and its shutdown hook comes here)
    }
    // No heartbeat or registration from here on: a stopping agent must not offer its node again
    // (killing its jobs can take seconds, and its server is closing).
    linkThread.shutdownNow();
    if (watch != null) {
      watch.close();
    }
    server.close();
    control.killEverything();
    controllerThreads.shutdownNow();
    timers.shutdownNow();
    workers.shutdownNow();
    try {
      controllerThreads.awaitTermination(5, TimeUnit.SECONDS);
      linkThread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.info("agent stopped");
  }

  private Registration registration() {
    return new Registration(config.name(), server.address(), config.gpus(), config.gpuType(), config.cpus(),
        config.memoryMb(), config.features(), config.placementGroup(), control.held());
  }

  private static long postOutput(ControllerClient client, OutputChunk chunk) throws IOException {
    ControllerClient.Reply reply = client.post("/v1/agent/output", chunk);
    if (!reply.ok() || !reply.body().path("next_offset").canConvertToLong()) {
      throw new IOException("the controller answered HTTP " + reply.status() + " " + reply.body());
    }
    return reply.body().path("next_offset").asLong();
  }

  private static ThreadFactory threads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread t = new Thread(runnable, prefix + "-" + count.incrementAndGet());
      // Daemons: a stuck job stream must never keep a stopping agent alive.
      t.setDaemon(true);
      return t;
    };
  }
}
