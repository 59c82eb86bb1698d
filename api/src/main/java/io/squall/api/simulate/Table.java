package io.squall.api.simulate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The configurations' figures side by side: a row per figure, a column per configuration. */
final class Table {
  private Table() {}

  @SuppressWarnings("unchecked")
  static String of(List<Path> configs, List<Map<String, Object>> figures) {
    List<List<String>> rows = new ArrayList<>();
    List<String> head = new ArrayList<>();
    head.add("");
    configs.forEach(c -> head.add(c.getFileName().toString()));
    rows.add(head);
    for (String key : figures.get(0).keySet()) {
      if (key.equals("config") || key.equals("accounts")) {
        continue;
      }
      List<String> row = new ArrayList<>();
      row.add(key);
      figures.forEach(f -> row.add(String.valueOf(f.get(key))));
      rows.add(row);
    }
    // Spend per account against its budget, for every account any configuration billed.
    Set<String> accounts = new TreeSet<>();
    figures.forEach(f -> accounts.addAll(((Map<String, Object>) f.get("accounts")).keySet()));
    for (String a : accounts) {
      List<String> row = new ArrayList<>();
      row.add("spent_usd " + a);
      for (Map<String, Object> f : figures) {
        Map<String, Object> acct = (Map<String, Object>) ((Map<String, Object>) f.get("accounts")).get(a);
        row.add(acct == null ? "0" : acct.get("spent_usd") + (acct.get("hard_usd") == null ? ""
            : " of " + Math.round((Double) acct.get("hard_usd"))));
      }
      rows.add(row);
    }
    int[] width = new int[head.size()];
    for (List<String> r : rows) {
      for (int i = 0; i < r.size(); i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    StringBuilder b = new StringBuilder();
    for (List<String> r : rows) {
      for (int i = 0; i < r.size(); i++) {
        String cell = r.get(i);
        b.append(i == 0 ? cell + " ".repeat(width[i] - cell.length()) : "  " + " ".repeat(width[i] - cell.length()) + cell);
      }
      b.append('\n');
    }
    return b.toString();
  }
}
