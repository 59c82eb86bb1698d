package io.squall.core.topology;

import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import io.squall.core.model.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A parsed {@code topology.conf}.
 *
 * @param groupOfNode each node's placement group: its leaf switch (tree) or block
 * @param parentOfSwitch for a tree, each switch's parent switch
 * @param blockSizes for blocks, the allowed aggregate sizes (BlockSizes); empty for a tree
 */
public record TopologyConf(Map<String, String> groupOfNode, Map<String, String> parentOfSwitch, List<Integer> blockSizes) {
  public TopologyConf {
    groupOfNode = Map.copyOf(groupOfNode);
    parentOfSwitch = Map.copyOf(parentOfSwitch);
    blockSizes = List.copyOf(blockSizes);
  }

  /**
   * The nodes with their placement group taken from this topology (leaf switch or block); nodes
   * the file does not name keep the group they had.
   */
  public List<Node> assignGroups(List<Node> nodes) {
    List<Node> out = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      String group = groupOfNode.getOrDefault(n.name(), n.placementGroup());
      out.add(new Node(n.name(), n.gpus(), n.gpuType(), n.cpus(), n.memoryMb(), n.features(), group, n.state()));
    }
    return out;
  }

  /** @throws IllegalArgumentException with {@code line N: ...} for a line that cannot be read */
  public static TopologyConf parse(String text) {
    Map<String, String> groupOfNode = new TreeMap<>();
    Map<String, String> parent = new TreeMap<>();
    List<Integer> blockSizes = new ArrayList<>();
    boolean tree = false;
    boolean block = false;
    String[] lines = text.split("\r?\n", -1);
    for (int n = 0; n < lines.length; n++) {
      String where = "line " + (n + 1);
      String line = lines[n];
      int hash = line.indexOf('#');
      if (hash >= 0) {
        line = line.substring(0, hash);
      }
      line = line.strip();
      if (line.isEmpty()) {
        continue;
      }
      Map<String, String> kv = keyValues(line, where);
      if (kv.containsKey("switchname")) {
        tree = true;
        String name = kv.get("switchname");
        if (kv.containsKey("nodes")) {
          assign(groupOfNode, expand(kv.get("nodes"), where), name, where);
        }
        if (kv.containsKey("switches")) {
          for (String child : expand(kv.get("switches"), where)) {
            if (parent.put(child, name) != null) {
              throw new IllegalArgumentException(where + ": switch " + child + " has two parents");
            }
          }
        }
        if (!kv.containsKey("nodes") && !kv.containsKey("switches")) {
          throw new IllegalArgumentException(where + ": switch " + name + " has neither Nodes= nor Switches=");
        }
      } else if (kv.containsKey("blockname")) {
        block = true;
        if (!kv.containsKey("nodes")) {
          throw new IllegalArgumentException(where + ": block " + kv.get("blockname") + " has no Nodes=");
        }
        assign(groupOfNode, expand(kv.get("nodes"), where), kv.get("blockname"), where);
      } else if (kv.containsKey("blocksizes")) {
        block = true;
        for (String size : kv.get("blocksizes").split(",")) {
          try {
            blockSizes.add(Integer.parseInt(size.strip()));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": BlockSizes must list whole numbers, not '" + size + "'");
          }
        }
      } else {
        throw new IllegalArgumentException(where + ": expected SwitchName=, BlockName= or BlockSizes=");
      }
    }
    if (tree && block) {
      throw new IllegalArgumentException("topology.conf mixes a tree (SwitchName) and blocks (BlockName)");
    }
    return new TopologyConf(groupOfNode, parent, blockSizes);
  }

  private static Map<String, String> keyValues(String line, String where) {
    Map<String, String> kv = new LinkedHashMap<>();
    for (String word : line.split("\\s+")) {
      int eq = word.indexOf('=');
      if (eq <= 0 || eq == word.length() - 1) {
        throw new IllegalArgumentException(where + ": expected Key=Value, got '" + word + "'");
      }
      kv.put(word.substring(0, eq).toLowerCase(Locale.ROOT), word.substring(eq + 1));
    }
    return kv;
  }

  private static List<String> expand(String hostlist, String where) {
    try {
      return Hostlist.expand(hostlist);
    } catch (HostlistException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
  }

  private static void assign(Map<String, String> groupOfNode, List<String> nodes, String group, String where) {
    for (String node : nodes) {
      String before = groupOfNode.put(node, group);
      if (before != null) {
        throw new IllegalArgumentException(where + ": node " + node + " is already in " + before);
      }
    }
  }
}
