package io.squall.infra;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cloud permissions the provider plugins need, read from their bytecode: every call of an AWS
 * SDK client ({@code Ec2Client.runInstances} is {@code ec2:RunInstances}) or a Compute Engine
 * client ({@code InstancesClient.bulkInsertCallable} is {@code compute.instances.create}), and the
 * request fields that need a permission of their own (tags on launch, an instance profile, a
 * service account, an image, ...). A call this class cannot name a permission for is kept as
 * unmapped, so a new kind of call fails the test instead of passing unseen.
 */
final class ProviderCalls {
  private static final Pattern AWS_CLIENT = Pattern.compile("software\\.amazon\\.awssdk\\.services\\.(\\w+)\\.\\w+Client");
  private static final Pattern GCE_CLIENT = Pattern.compile("com\\.google\\.cloud\\.compute\\.v1\\.(\\w+)Client");
  /** Client methods that make no API call. */
  private static final Set<String> NOT_CALLS = Set.of("close", "serviceName", "serviceClientConfiguration",
      "shutdown", "shutdownNow", "isShutdown", "isTerminated", "awaitTermination", "getSettings", "getStub");
  /** GCE method (without {@code Callable}) to the verb of its permission. */
  private static final Map<String, String> GCE_VERBS = Map.of("insert", "create", "bulkInsert", "create", "get", "get",
      "delete", "delete", "list", "list", "aggregatedList", "list", "wait", "get");
  /**
   * Request fields that need a permission beyond the call's own (AWS: tagging on create, passing
   * a role; GCE: what the new instance uses or is given).
   */
  private static final Map<String, List<String>> FIELDS = Map.ofEntries(
      Map.entry("software.amazon.awssdk.services.ec2.model.RunInstancesRequest$Builder.tagSpecifications",
          List.of("ec2:CreateTags")),
      Map.entry("software.amazon.awssdk.services.ec2.model.RunInstancesRequest$Builder.iamInstanceProfile",
          List.of("iam:PassRole")),
      Map.entry("software.amazon.awssdk.services.ec2.model.CreatePlacementGroupRequest$Builder.tagSpecifications",
          List.of("ec2:CreateTags")),
      Map.entry("com.google.cloud.compute.v1.InstanceProperties$Builder.setMetadata",
          List.of("compute.instances.setMetadata")),
      Map.entry("com.google.cloud.compute.v1.InstanceProperties$Builder.putAllLabels",
          List.of("compute.instances.setLabels")),
      Map.entry("com.google.cloud.compute.v1.InstanceProperties$Builder.putLabels",
          List.of("compute.instances.setLabels")),
      Map.entry("com.google.cloud.compute.v1.InstanceProperties$Builder.addServiceAccounts",
          List.of("compute.instances.setServiceAccount", "iam.serviceAccounts.actAs")),
      Map.entry("com.google.cloud.compute.v1.InstanceProperties$Builder.addResourcePolicies",
          List.of("compute.resourcePolicies.use")),
      Map.entry("com.google.cloud.compute.v1.InstanceProperties$Builder.addDisks", List.of("compute.disks.create")),
      Map.entry("com.google.cloud.compute.v1.AttachedDiskInitializeParams$Builder.setSourceImage",
          List.of("compute.images.useReadOnly")),
      Map.entry("com.google.cloud.compute.v1.NetworkInterface$Builder.setNetwork", List.of("compute.networks.use")),
      Map.entry("com.google.cloud.compute.v1.NetworkInterface$Builder.setSubnetwork",
          List.of("compute.subnetworks.use")));

  /** Permission to where it is needed ({@code Class.method}), for messages. */
  final Map<String, Set<String>> needed = new TreeMap<>();
  /** Calls of a cloud client no permission is known for. */
  final Set<String> unmapped = new TreeSet<>();

  /** The calls of the classes in {@code packages} (main classes only). */
  static ProviderCalls in(String... packages) {
    JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(packages);
    ProviderCalls calls = new ProviderCalls();
    for (JavaClass c : classes) {
      for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
        calls.read(call);
      }
    }
    return calls;
  }

  /** The permissions whose names start with {@code prefix} ({@code ec2:}, {@code compute.}). */
  Set<String> starting(String... prefixes) {
    Set<String> out = new TreeSet<>();
    for (String p : needed.keySet()) {
      for (String prefix : prefixes) {
        if (p.startsWith(prefix)) {
          out.add(p);
        }
      }
    }
    return out;
  }

  private void read(JavaMethodCall call) {
    String owner = call.getTargetOwner().getName();
    String method = call.getName();
    String where = call.getOriginOwner().getSimpleName() + "." + call.getOrigin().getName() + ":" + call.getLineNumber();
    String field = owner + "." + method;
    if (FIELDS.containsKey(field)) {
      FIELDS.get(field).forEach(p -> need(p, where));
      return;
    }
    Matcher aws = AWS_CLIENT.matcher(owner);
    Matcher gce = GCE_CLIENT.matcher(owner);
    boolean isStatic = call.getTarget().resolveMember()
        .map(m -> m.getModifiers().contains(JavaModifier.STATIC)).orElse(false);
    if (!(aws.matches() || gce.matches()) || NOT_CALLS.contains(method) || isStatic) {
      return;
    }
    if (aws.matches()) {
      String service = aws.group(1);
      String action = Character.toUpperCase(method.charAt(0)) + method.substring(1).replaceFirst("Paginator$", "");
      if (service.equals("sqs")) {
        // SQS authorizes a batch as its single action: DeleteMessageBatch is sqs:DeleteMessage.
        action = action.replaceFirst("Batch$", "");
      }
      need(service + ":" + action, where);
      return;
    }
    String collection = Character.toLowerCase(gce.group(1).charAt(0)) + gce.group(1).substring(1);
    String verb = GCE_VERBS.get(method.replaceFirst("(Paged)?Callable$", ""));
    if (verb == null) {
      unmapped.add(owner + "." + method + " (" + where + ")");
      return;
    }
    need("compute." + collection + "." + verb, where);
  }

  private void need(String permission, String where) {
    needed.computeIfAbsent(permission, k -> new TreeSet<>()).add(where);
  }
}
