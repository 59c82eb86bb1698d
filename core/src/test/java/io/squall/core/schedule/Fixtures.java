package io.squall.core.schedule;

import io.squall.core.model.Account;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.Job;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import io.squall.core.model.UsageLedger;
import io.squall.core.model.UserAssociation;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SbatchParser;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Small builders for scheduler tests: nodes, partitions and jobs written as sbatch options. */
final class Fixtures {
  static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  private static final SbatchParser PARSER = new SbatchParser(ZoneOffset.UTC);

  private Fixtures() {}

  /** {@code count} idle 8-GPU H100 nodes named prefix001.., in groups of {@code perGroup}. */
  static List<Node> nodes(String prefix, int count, int perGroup) {
    List<Node> out = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      String name = String.format("%s%03d", prefix, i);
      out.add(new Node(name, 8, "h100", 96, 1_000_000, Set.of("h100"), prefix + "-pg" + ((i - 1) / perGroup),
          NodeState.IDLE));
    }
    return out;
  }

  static List<String> names(List<Node> nodes) {
    return nodes.stream().map(Node::name).toList();
  }

  static JobRequest request(String options) {
    List<String> words = options.isBlank() ? List.of() : Arrays.asList(options.trim().split("\\s+"));
    return PARSER.parse("#!/bin/bash\nsrun hostname\n", "job.sh", words, T0).request();
  }

  static Job job(long id, String options) {
    return job(id, options, T0);
  }

  static Job job(long id, String options, Instant submitted) {
    return Job.pending(id, request(options), "alice", "ml", "normal", submitted);
  }

  static Job jobOf(long id, String user, String account, String options) {
    return Job.pending(id, request(options), user, account, "normal", T0);
  }

  static ClusterSnapshot snapshot(List<Node> nodes, List<Partition> partitions, List<Job> jobs) {
    return new ClusterSnapshot(nodes, partitions, Map.of("normal", Qos.normal()),
        List.of(new Account("ml", null, 1), new Account("research", null, 1)),
        List.of(new UserAssociation("alice", "ml", 1), new UserAssociation("bob", "research", 1)),
        jobs, UsageLedger.empty(T0, Duration.ofDays(7)));
  }

  static ClusterSnapshot simple(int nodeCount, int perGroup, List<Job> jobs) {
    List<Node> nodes = nodes("gpu", nodeCount, perGroup);
    return snapshot(nodes, List.of(Partition.of("gpu", names(nodes)).asDefault()), jobs);
  }
}
