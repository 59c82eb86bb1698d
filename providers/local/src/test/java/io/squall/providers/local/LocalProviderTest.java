package io.squall.providers.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Availability;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real agent processes against a fake controller that only takes registrations and heartbeats. */
class LocalProviderTest {
  private static final String TOKEN = "agent-secret";
  /** Generous: two agent JVMs start at once on a slow two-core machine. */
  private static final Duration LONG = Duration.ofSeconds(120);
  private static final Pattern NAME = Pattern.compile("\"name\":\"([^\"]+)\"");
  private static final Pattern ADDRESS = Pattern.compile("\"address\":\"([^\"]+)\"");

  @TempDir Path base;
  private HttpServer controller;
  private final Map<String, String> registered = new ConcurrentHashMap<>();
  private final Set<String> tokens = ConcurrentHashMap.newKeySet();
  private LocalProvider provider;

  @BeforeEach
  void start() throws IOException {
    controller = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    controller.createContext("/", this::handle);
    controller.start();
    provider = new LocalProvider(base);
  }

  @AfterEach
  void stop() {
    provider.close();
    controller.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      tokens.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
      if (exchange.getRequestURI().getPath().equals("/v1/agent/register")) {
        Matcher name = NAME.matcher(body);
        Matcher address = ADDRESS.matcher(body);
        if (name.find() && address.find()) {
          registered.put(name.group(1), address.group(1));
        }
      }
      byte[] answer = "{\"heartbeat_seconds\":1}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
    }
  }

  private NodeLaunch node(String name) {
    Node node = new Node(name, 2, "h100", 4, 16_000, Set.of("local"), "pg-1", NodeState.CLOUD);
    return new NodeLaunch(node, "http://127.0.0.1:" + controller.getAddress().getPort(), TOKEN);
  }

  private List<Instance> launch(String token, String... names) {
    List<NodeLaunch> nodes = java.util.Arrays.stream(names).map(this::node).toList();
    Offering local = new Offering(LocalProvider.INSTANCE_TYPE, "local", CapacityType.ON_DEMAND, 0, Availability.AVAILABLE);
    return provider.launch(new LaunchRequest("test", "gpu", nodes, nodes.size(), local, "pg-1", Map.of(), token));
  }

  private List<String> listed() {
    return provider.list("test").stream().map(Instance::nodeName).toList();
  }

  private static Instance instance(String name) {
    return new Instance(name, name, "test", "gpu", "pg-1", "t", null, InstanceState.RUNNING);
  }

  /** The agent processes running for this test's base directory. */
  private List<ProcessHandle> agentProcesses() {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().arguments().map(a -> List.of(a).contains("io.squall.agent.AgentMain")
            && String.join(" ", a).contains(base.toString())).orElse(false))
        .toList();
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    Instant deadline = Instant.now().plus(LONG);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(100);
    }
  }

  @Test
  void launchedAgentsRegisterAndTerminateStopsThemWithTheirJobs() throws Exception {
    launch("t1", "local-1", "local-2");

    await("both agents to register", () -> registered.keySet().containsAll(List.of("local-1", "local-2")));
    assertThat(listed()).containsExactly("local-1", "local-2");
    assertThat(tokens).containsOnly("Bearer " + TOKEN);
    assertThat(base.resolve("local-1/agent.log")).content().contains("agent listening on http://127.0.0.1:");
    assertThat(base.resolve("local-1/bin/srun")).isExecutable();
    assertThat(agentProcesses()).hasSize(2);
    assertThat(agentProcesses()).allSatisfy(p ->
        assertThat(String.join(" ", p.info().arguments().orElseThrow())).doesNotContain(TOKEN));

    launch("t2", "local-1");
    assertThat(agentProcesses()).hasSize(2);

    // A job on local-1 must die with its node.
    Path pidFile = base.resolve("job.pid");
    String job = "{\"job\":\"7\",\"credential\":\"c\",\"batch\":true,\"script\":\"echo $$ > " + pidFile
        + "\\nsleep 600\\n\",\"work_dir\":\"" + base + "\",\"environment\":{\"PATH\":\"/usr/bin:/bin\"},"
        + "\"gpus\":[0],\"stdout\":\"" + base.resolve("job.out") + "\",\"stderr\":\"" + base.resolve("job.out")
        + "\",\"open_mode\":\"truncate\",\"nodes\":{\"local-1\":\"" + registered.get("local-1") + "\"},"
        + "\"run_as\":{\"user\":\"" + System.getProperty("user.name") + "\"}}";
    HttpResponse<String> launched = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(registered.get("local-1") + "/jobs"))
            .header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.ofString(job)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(launched.statusCode()).isEqualTo(200);
    await("the job to start", () -> Files.exists(pidFile) && pidFile.toFile().length() > 0);
    long jobPid = Long.parseLong(Files.readString(pidFile).trim());

    provider.terminate(instance("local-1"));

    assertThat(listed()).containsExactly("local-2");
    assertThat(agentProcesses()).hasSize(1);
    await("the job to die with its node", () -> ProcessHandle.of(jobPid).map(p -> !p.isAlive()).orElse(true));
    provider.terminate(instance("local-1"));
    provider.terminate(instance("never-launched"));

    provider.close();
    assertThat(listed()).isEmpty();
    assertThat(agentProcesses()).isEmpty();
  }

  @Test
  void aFailedLaunchStopsWhatItStartedAndNotWhatWasRunning() throws Exception {
    launch("t4", "local-1");
    // local-3's directory cannot be made: a file is in its place.
    Files.writeString(base.resolve("local-3"), "in the way");

    assertThatThrownBy(() -> launch("t5", "local-1", "local-2", "local-3"))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining("node local-3: cannot start its agent");

    assertThat(listed()).containsExactly("local-1");
    assertThat(agentProcesses()).hasSize(1);
  }

  @Test
  void aNodeNameThatCannotBeADirectoryIsRefused() {
    assertThatThrownBy(() -> launch("t3", "../escape"))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining("node name '../escape'");
    assertThat(listed()).isEmpty();
    assertThat(base.getParent().resolve("escape")).doesNotExist();
  }

  @Test
  void theAgentCommandLineCarriesTheNodeButNotTheToken() {
    List<String> command = AgentCommand.forNode(node("gpu-1"), base.resolve("gpu-1"),
        base.resolve("gpu-1/agent-token"), List.of("-Xmx64m"));
    assertThat(command.get(1)).isEqualTo("-Xmx64m");
    assertThat(String.join(" ", command)).contains("io.squall.agent.AgentMain --controller http://127.0.0.1:")
        .contains("--token-file " + base.resolve("gpu-1/agent-token") + " --name gpu-1 --gpus 2 --gpu-type h100 --cpus 4 --memory-mb 16000 --features local"
            + " --placement-group pg-1 --work-dir " + base.resolve("gpu-1"))
        .doesNotContain(TOKEN);
  }

  @Test
  void theAgentReadsItsTokenFromAFileOnlyItsOwnerMayRead() throws Exception {
    launch("token-file", "gpu-1");
    java.nio.file.Path file = base.resolve("gpu-1/agent-token");
    assertThat(java.nio.file.Files.readString(file)).isEqualTo(TOKEN);
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
  }

  /**
   * A controller killed with -9 leaves its local agents running, as a cloud's machines would
   * be. The next controller's provider adopts them: they are listed, and a launch for the same
   * controller keeps them instead of starting a second agent for the node.
   */
  @Test
  void aNewProviderAdoptsTheAgentsAnEarlierOneLeftRunning() throws Exception {
    launch("t1", "local-1");
    await("the agent to register", () -> registered.containsKey("local-1"));
    long pid = agentProcesses().get(0).pid();

    LocalProvider next = new LocalProvider(base); // the first is abandoned, as by kill -9
    assertThat(next.list("test")).extracting(Instance::nodeName).containsExactly("local-1");
    List<NodeLaunch> nodes = List.of(node("local-1"));
    Offering local = new Offering(LocalProvider.INSTANCE_TYPE, "local", CapacityType.ON_DEMAND, 0, Availability.AVAILABLE);
    next.launch(new LaunchRequest("test", "gpu", nodes, 1, local, "pg-1", Map.of(), "t2"));
    assertThat(agentProcesses()).extracting(ProcessHandle::pid).containsExactly(pid);

    // A controller that listens elsewhere cannot use that agent: it goes before another starts.
    Node template = nodes.get(0).node();
    next.launch(new LaunchRequest("test", "gpu", List.of(new NodeLaunch(template, "http://127.0.0.1:1", TOKEN)), 1,
        local, "pg-1", Map.of(), "t3"));
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(agentProcesses()).hasSize(1);
    next.close();
    assertThat(agentProcesses()).isEmpty();
  }

  /**
   * An agent killed with -9 is started again in place, as systemd would, and the new agent kills
   * what its predecessor's job left running before it registers: the job cannot run twice.
   */
  @Test
  void aKilledAgentComesBackAndKillsWhatItsJobsLeftRunning() throws Exception {
    launch("t1", "local-1");
    await("the agent to register", () -> registered.containsKey("local-1"));
    String firstAddress = registered.get("local-1");
    Path pidFile = base.resolve("orphan.pid");
    String job = "{\"job\":\"8\",\"credential\":\"c\",\"batch\":true,\"script\":\"(sleep 600; echo late) &\\necho $! > "
        + pidFile + "\\nwait\\n\",\"work_dir\":\"" + base + "\",\"environment\":{\"PATH\":\"/usr/bin:/bin\"},"
        + "\"gpus\":[0],\"stdout\":\"" + base.resolve("job.out") + "\",\"open_mode\":\"truncate\","
        + "\"nodes\":{\"local-1\":\"" + firstAddress + "\"},\"run_as\":{\"user\":\""
        + System.getProperty("user.name") + "\"}}";
    HttpResponse<String> launched = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(firstAddress + "/jobs")).header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.ofString(job)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(launched.statusCode()).as(launched.body()).isEqualTo(200);
    await("the job to start", () -> pidFile.toFile().length() > 0);
    long orphan = Long.parseLong(Files.readString(pidFile).trim());
    ProcessHandle agent = agentProcesses().get(0);

    agent.destroyForcibly();
    agent.onExit().get();
    assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false)).isTrue(); // left behind

    await("the agent to come back", () -> !firstAddress.equals(registered.get("local-1")));
    assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(agentProcesses()).hasSize(1);
    assertThat(base.resolve("local-1/agent.log")).content().contains("processes left running by an earlier agent's jobs");
    assertThat(listed()).containsExactly("local-1");
  }
}
