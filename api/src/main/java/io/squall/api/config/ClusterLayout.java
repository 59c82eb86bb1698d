package io.squall.api.config;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.env.Environment;
import io.squall.api.spot.CheckpointPolicy;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import io.squall.core.model.Account;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.model.Partition;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import io.squall.core.model.TresBillingWeights;
import io.squall.core.model.UserAssociation;
import io.squall.core.money.Budget;
import io.squall.core.money.BudgetPeriod;
import io.squall.core.money.PriceCaps;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.provision.PurchaseRules;
import io.squall.core.provision.QosCapacity;
import io.squall.core.provision.SpotPolicy;
import jakarta.inject.Inject;
import io.squall.core.sbatch.SignalSpec;
import io.squall.providers.local.LocalProvider;
import java.nio.file.FileSystems;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cluster as configured: partitions, their nodes (from the node templates), accounts, users
 * and QOS, in the core's types. Checked once at start-up so a bad configuration stops the
 * controller with a message that names the setting.
 */
@Context
public final class ClusterLayout {
  private final List<Partition> partitions = new ArrayList<>();
  private final Map<String, Node> nodes = new LinkedHashMap<>();
  private final Map<String, List<String>> partitionsOfNode = new LinkedHashMap<>();
  private final List<Account> accounts = new ArrayList<>();
  private final List<UserAssociation> users = new ArrayList<>();
  private final Map<String, Qos> qos;
  private final String defaultQos;
  private final Map<String, CapacityPolicy> policies = new TreeMap<>();
  private final Set<String> elasticNodes = new TreeSet<>();
  private final Map<String, CheckpointPolicy> checkpointPolicies = new TreeMap<>();
  private final List<Budget> budgets = new ArrayList<>();
  private final Map<String, java.time.Duration> changeovers = new TreeMap<>();
  private final PurchaseRules purchaseRules;

  /** With only the default QOS, and no list price known. */
  public ClusterLayout(List<PartitionConfig> partitionConfigs, List<AccountConfig> accountConfigs,
      List<UserConfig> userConfigs, SquallConfig config) {
    this(partitionConfigs, accountConfigs, userConfigs, List.of(), config);
  }

  /** With no list price known, so no price cap is refused for being below them. */
  public ClusterLayout(List<PartitionConfig> partitionConfigs, List<AccountConfig> accountConfigs,
      List<UserConfig> userConfigs, List<QosConfig> qosConfigs, SquallConfig config) {
    this(partitionConfigs, accountConfigs, userConfigs, qosConfigs, config, ListPrices.NONE);
  }

  /**
   * The controller's: the partitions in force among those bound ({@link BuiltInPartitions}: the
   * built-in example partition only when the configuration names none of its own).
   */
  @Inject
  public ClusterLayout(List<PartitionConfig> partitionConfigs, List<AccountConfig> accountConfigs,
      List<UserConfig> userConfigs, List<QosConfig> qosConfigs, SquallConfig config, ListPrices listPrices,
      Environment environment) {
    this(BuiltInPartitions.inForce(partitionConfigs, environment.getPropertySources()), accountConfigs, userConfigs,
        qosConfigs, config, listPrices);
  }

  /**
   * @param listPrices what the provider is known to sell each instance type for at start-up: a
   *     price cap below every offering it applies to is refused ({@link UnreachableCaps})
   */
  public ClusterLayout(List<PartitionConfig> partitionConfigs, List<AccountConfig> accountConfigs,
      List<UserConfig> userConfigs, List<QosConfig> qosConfigs, SquallConfig config, ListPrices listPrices) {
    List<PartitionConfig> sorted = new ArrayList<>(partitionConfigs);
    sorted.sort(Comparator.comparing(PartitionConfig::getName));
    if (sorted.isEmpty()) {
      throw new IllegalStateException("squall.partitions: configure at least one partition");
    }
    boolean anyDefault = sorted.stream().anyMatch(PartitionConfig::isDefault);
    for (PartitionConfig p : sorted) {
      List<String> names = nodeNames(p);
      addNodes(p, names);
      checkpointPolicies.put(p.getName(), checkpointPolicy(p, config));
      if (p.getChangeoverTime() == null || p.getChangeoverTime().isNegative()) {
        throw new IllegalStateException("squall.partitions." + p.getName() + ".changeover-time: must be 0 or more, not "
            + p.getChangeoverTime());
      }
      changeovers.put(p.getName(), p.getChangeoverTime());
      if (p.isElastic()) {
        policies.put(p.getName(), policy(p, config.getProvider()).withCaps(
            caps("squall.partitions." + p.getName() + ".", p.getMaxSpotUsdPerGpuHour(), p.getMaxOnDemandUsdPerGpuHour()),
            p.getGpus()));
        elasticNodes.addAll(names);
      }
      Partition partition = Partition.of(p.getName(), names)
          .withLimits(p.getMaxTimeMinutes(), p.getDefaultTimeMinutes(), p.getMaxNodes())
          .withPriority(p.getPriorityJobFactor(), p.getPriorityTier(), preemptMode(p), graceSeconds(p))
          .withBillingWeights(billingWeights(p));
      partitions.add(p.isDefault() || (!anyDefault && p == sorted.get(0)) ? partition.asDefault() : partition);
    }
    UnreachableCaps unreachable = new UnreachableCaps(policies, listPrices);
    policies.keySet().forEach(unreachable::refusePartition);
    Set<String> accountNames = new TreeSet<>();
    for (AccountConfig a : accountConfigs) {
      accounts.add(new Account(a.getName(), a.getParent(), a.getShares(), ConfiguredLimits.of(a)));
      accountNames.add(a.getName());
    }
    for (AccountConfig a : accountConfigs) {
      if (a.getParent() != null && !accountNames.contains(a.getParent())) {
        throw new IllegalStateException("squall.accounts." + a.getName() + ".parent: no account '" + a.getParent()
            + "' under squall.accounts");
      }
      budget(a).ifPresent(budgets::add);
    }
    for (UserConfig u : userConfigs) {
      // Tokens are checked where they are kept (UserTokens).
      if (u.getAccount() == null) {
        throw new IllegalStateException("squall.users." + u.getName() + ": needs an account");
      }
      if (!accountNames.contains(u.getAccount())) {
        throw new IllegalStateException("squall.users." + u.getName() + ".account: no account '"
            + u.getAccount() + "' under squall.accounts");
      }
      users.add(new UserAssociation(u.getName(), u.getAccount(), u.getShares()));
    }
    accounts.sort(Comparator.comparing(Account::name));
    users.sort(Comparator.comparing(UserAssociation::user));
    defaultQos = config.getDefaultQos();
    Qos normal = Qos.normal();
    Map<String, Qos> allQos = new TreeMap<>();
    allQos.put(config.getDefaultQos(), new Qos(config.getDefaultQos(), normal.priority(), normal.preempt(),
        normal.preemptMode(), null, null));
    Map<String, PurchaseRules.QosRule> qosRules = new TreeMap<>();
    Set<String> qosNames = new TreeSet<>(allQos.keySet());
    qosConfigs.forEach(q -> qosNames.add(q.getName()));
    for (QosConfig q : qosConfigs) {
      String key = "squall.qos." + q.getName() + ".";
      PriceCaps caps = caps(key, q.getMaxSpotUsdPerGpuHour(), q.getMaxOnDemandUsdPerGpuHour());
      unreachable.refuseEverywhere(key, caps);
      QosCapacity capacity = q.getCapacity() == null ? null : qosCapacity(key, q.getCapacity());
      allQos.put(q.getName(), ConfiguredLimits.of(q, capacity == null ? Set.of() : capacity.runsOn(), qosNames));
      if (capacity != null || !caps.isNone()) {
        qosRules.put(q.getName(), new PurchaseRules.QosRule(capacity, caps));
      }
    }
    qos = Map.copyOf(allQos);
    Map<String, PriceCaps> accountCaps = new TreeMap<>();
    Map<String, String> parents = new TreeMap<>();
    for (AccountConfig a : accountConfigs) {
      String key = "squall.accounts." + a.getName() + ".";
      PriceCaps caps = caps(key, a.getMaxSpotUsdPerGpuHour(), a.getMaxOnDemandUsdPerGpuHour());
      unreachable.refuseEverywhere(key, caps);
      if (!caps.isNone()) {
        accountCaps.put(a.getName(), caps);
      }
      if (a.getParent() != null) {
        parents.put(a.getName(), a.getParent());
      }
    }
    purchaseRules = new PurchaseRules(qosRules, accountCaps, parents);
  }

  /** Price caps per GPU-hour from {@code max-spot-usd-per-gpu-hour} and {@code max-on-demand-usd-per-gpu-hour} under {@code key}. */
  private static PriceCaps caps(String key, Double spot, Double onDemand) {
    capCheck(key + "max-spot-usd-per-gpu-hour", spot);
    capCheck(key + "max-on-demand-usd-per-gpu-hour", onDemand);
    return new PriceCaps(spot, onDemand);
  }

  private static void capCheck(String key, Double usd) {
    if (usd != null && (!(usd > 0) || usd.isInfinite())) {
      throw new IllegalStateException(key + ": a price cap is US dollars per GPU-hour above 0, not " + usd);
    }
  }

  private static QosCapacity qosCapacity(String key, String text) {
    return QosCapacity.byConfigName(text).orElseThrow(() -> new IllegalStateException(key + "capacity: '" + text
        + "' is not spot-only, spot-then-on-demand, on-demand or deadline"));
  }

  /** Finance's rules per job: QOS capacity and caps, account caps (see {@link PurchaseRules}). */
  public PurchaseRules purchaseRules() {
    return purchaseRules;
  }

  /** How long a job of the partition takes from losing its nodes to running on new ones. */
  public java.time.Duration changeover(String partition) {
    return changeovers.getOrDefault(partition, java.time.Duration.ofMinutes(5));
  }

  /** The account's budget, if it has one; refuses one that does not make sense, naming the key. */
  private static Optional<Budget> budget(AccountConfig a) {
    String key = "squall.accounts." + a.getName() + ".";
    if (!"USD".equals(a.getCurrency())) {
      throw new IllegalStateException(key + "currency: '" + a.getCurrency()
          + "' is not supported: prices and budgets are in USD");
    }
    dollars(key + "soft-limit-usd", a.getSoftLimitUsd());
    dollars(key + "hard-limit-usd", a.getHardLimitUsd());
    if (a.getSoftLimitUsd() != null && a.getHardLimitUsd() != null && a.getSoftLimitUsd() > a.getHardLimitUsd()) {
      throw new IllegalStateException(key + "soft-limit-usd: " + a.getSoftLimitUsd() + " is above hard-limit-usd "
          + a.getHardLimitUsd() + "; the soft limit comes first");
    }
    BudgetPeriod period;
    try {
      period = BudgetPeriod.valueOf(a.getBudgetPeriod().trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(key + "budget-period: '" + a.getBudgetPeriod() + "' is not day, week or month");
    }
    for (Integer pct : a.getBudgetAlerts()) {
      if (pct == null || pct <= 0 || pct > 1000) {
        throw new IllegalStateException(key + "budget-alerts: " + pct + " is not a percentage from 1 to 1000");
      }
    }
    if (a.isStopAtHardLimit() && a.getHardLimitUsd() == null) {
      throw new IllegalStateException(key + "stop-at-hard-limit: set hard-limit-usd too");
    }
    if (a.getSoftLimitUsd() == null && a.getHardLimitUsd() == null) {
      return Optional.empty();
    }
    return Optional.of(new Budget(a.getName(), a.getSoftLimitUsd(), a.getHardLimitUsd(), period,
        a.isStopAtHardLimit(), a.getBudgetAlerts()));
  }

  private static void dollars(String key, Double usd) {
    if (usd != null && (!(usd >= 0) || usd.isInfinite())) {
      throw new IllegalStateException(key + ": a budget is US dollars, 0 or more, not " + usd);
    }
  }

  /** The budgets finance set, by account. */
  public List<Budget> budgets() {
    return List.copyOf(budgets);
  }

  /** Slurm's PreemptMode values Squall honours for a partition: OFF, REQUEUE, CANCEL. */
  private static PreemptMode preemptMode(PartitionConfig p) {
    String mode = p.getPreemptMode() == null ? "" : p.getPreemptMode().trim().toLowerCase(java.util.Locale.ROOT);
    return switch (mode) {
      case "off" -> PreemptMode.OFF;
      case "requeue" -> PreemptMode.REQUEUE;
      case "cancel" -> PreemptMode.CANCEL;
      default -> throw new IllegalStateException("squall.partitions." + p.getName() + ".preempt-mode: '"
          + p.getPreemptMode() + "' is not off, requeue or cancel");
    };
  }

  private static TresBillingWeights billingWeights(PartitionConfig p) {
    if (p.getTresBillingWeights() == null) {
      return TresBillingWeights.GPUS;
    }
    try {
      return TresBillingWeights.parse(p.getTresBillingWeights());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("squall.partitions." + p.getName() + ".tres-billing-weights: " + e.getMessage(), e);
    }
  }

  private static int graceSeconds(PartitionConfig p) {
    if (p.getGraceTime() == null || p.getGraceTime().isNegative() || p.getGraceTime().toSeconds() > Integer.MAX_VALUE) {
      throw new IllegalStateException("squall.partitions." + p.getName() + ".grace-time: must be 0 or more, not "
          + p.getGraceTime());
    }
    return (int) p.getGraceTime().toSeconds();
  }

  /** The instance type a provider's nodes are by default: its 8×H100 machine. */
  static String defaultInstanceType(String provider) {
    switch (provider) {
      case "aws":
        return "p5.48xlarge";
      case "gcp":
        return "a3-highgpu-8g";
      default:
        return LocalProvider.INSTANCE_TYPE;
    }
  }

  private static CapacityPolicy policy(PartitionConfig p, String provider) {
    String key = "squall.partitions." + p.getName() + ".";
    SpotPolicy spot;
    switch (p.getSpot()) {
      case "spot":
        spot = SpotPolicy.SPOT;
        break;
      case "on-demand":
        spot = SpotPolicy.ON_DEMAND;
        break;
      case "spot-then-on-demand":
        spot = SpotPolicy.SPOT_THEN_ON_DEMAND;
        break;
      default:
        throw new IllegalStateException(key + "spot: '" + p.getSpot() + "' is not spot, on-demand or spot-then-on-demand");
    }
    if (p.getMinNodes() < 0 || p.getMaxLaunchAttempts() < 1) {
      throw new IllegalStateException(key + "min-nodes must be >= 0 and max-launch-attempts >= 1");
    }
    List<String> types = p.getInstanceTypes().isEmpty() ? List.of(defaultInstanceType(provider)) : p.getInstanceTypes();
    return new CapacityPolicy(types, p.getZones(), spot, p.getOnDemandAfter(), p.getMaxSpotPrice(), p.getSuspendTime(),
        p.getResumeTimeout(), p.getMinNodes(), p.getUnavailableFor(), p.getBatchWindow(), p.getMaxLaunchAttempts(),
        p.getRetryBackoff());
  }

  private static CheckpointPolicy checkpointPolicy(PartitionConfig p, SquallConfig config) {
    String key = "squall.partitions." + p.getName() + ".";
    String signal;
    try {
      signal = SignalSpec.signalName(SignalSpec.signalNumber(p.getCheckpointSignal()));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(key + "checkpoint-signal: " + e.getMessage(), e);
    }
    if (p.getMaxRestarts() < 0 || p.getRestartBackoff().isNegative() || p.getInterruptionMargin().isNegative()
        || p.getCheckpointWait().isNegative()) {
      throw new IllegalStateException(key + "max-restarts, restart-backoff, interruption-margin and checkpoint-wait "
          + "must not be negative");
    }
    if (p.getCheckpointPattern() != null) {
      try {
        FileSystems.getDefault().getPathMatcher("glob:" + p.getCheckpointPattern());
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(key + "checkpoint-pattern: not a glob: " + e.getMessage(), e);
      }
    }
    String dir = p.getCheckpointDir() != null ? p.getCheckpointDir()
        : config.getDataDir().resolve("checkpoints").toAbsolutePath().toString();
    return new CheckpointPolicy(signal, dir, p.getCheckpointPattern(), p.getMaxRestarts(), p.getRestartBackoff(),
        p.getInterruptionMargin(), p.getCheckpointWait());
  }

  /** The partition's checkpoint policy; empty for a partition (of a stored job) no longer configured. */
  public Optional<CheckpointPolicy> findCheckpointPolicy(String partition) {
    return Optional.ofNullable(checkpointPolicies.get(partition));
  }

  /** The interruption and checkpoint rules of a configured partition. */
  public CheckpointPolicy checkpointPolicy(String partition) {
    CheckpointPolicy p = checkpointPolicies.get(partition);
    if (p == null) {
      throw new IllegalArgumentException("no partition " + partition);
    }
    return p;
  }

  private static List<String> nodeNames(PartitionConfig p) {
    if (p.getNodes() == null || p.getNodes().isBlank()) {
      throw new IllegalStateException("squall.partitions." + p.getName() + ".nodes: give the nodes as a hostlist, e.g. node-[1-4]");
    }
    try {
      return Hostlist.expand(p.getNodes());
    } catch (HostlistException e) {
      throw new IllegalStateException("squall.partitions." + p.getName() + ".nodes: " + e.getMessage(), e);
    }
  }

  private void addNodes(PartitionConfig p, List<String> names) {
    int groups = Math.max(1, Math.min(p.getPlacementGroups(), names.size()));
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      partitionsOfNode.computeIfAbsent(name, k -> new ArrayList<>()).add(p.getName());
      if (nodes.containsKey(name)) {
        continue; // a node may serve several partitions; its first template wins
      }
      String group = groups == 1 ? p.getName() : p.getName() + "-pg" + (i * groups / names.size() + 1);
      nodes.put(name, new Node(name, p.getGpus(), p.getGpuType(), p.getCpus(), p.getMemoryMb(),
          Set.copyOf(p.getFeatures()), group, p.isElastic() ? NodeState.CLOUD : NodeState.DOWN));
    }
  }

  public List<Partition> partitions() {
    return List.copyOf(partitions);
  }

  /**
   * Every configured node: DOWN (a node is up only once its agent registers), CLOUD for the nodes
   * of elastic partitions (powered down until a job needs them).
   */
  public List<Node> nodes() {
    return List.copyOf(nodes.values());
  }

  public Node node(String name) {
    return nodes.get(name);
  }

  public List<String> partitionsOf(String node) {
    return partitionsOfNode.getOrDefault(node, List.of());
  }

  public List<Account> accounts() {
    return List.copyOf(accounts);
  }

  public List<UserAssociation> users() {
    return List.copyOf(users);
  }

  /** The capacity policy of each elastic partition, by name. */
  public Map<String, CapacityPolicy> policies() {
    return Map.copyOf(policies);
  }

  /** Whether the node belongs to an elastic partition (the provider launches it on demand). */
  public boolean isElastic(String node) {
    return elasticNodes.contains(node);
  }

  public Map<String, Qos> qos() {
    return qos;
  }

  /** The QOS of a job that names none ({@code squall.default-qos}), one of {@link #qos()}. */
  public String defaultQos() {
    return defaultQos;
  }

  /** The UsageFactor of a job's QOS: 1 for none or an unknown one (a QOS since removed from configuration). */
  public double usageFactor(String qosName) {
    Qos q = qosName == null ? null : qos.get(qosName);
    return q == null ? 1 : q.usageFactor();
  }
}
