package io.squall.api.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** What the benches' {@code main} methods share: their {@code --name value} options, and how they refuse wrong ones. */
final class BenchMain {
  private BenchMain() {}

  /**
   * The options of {@code args}, by name without its dashes.
   *
   * @throws IllegalArgumentException naming {@code usage} and the first argument that is not a
   *     {@code --name} followed by a value
   */
  static Map<String, String> options(List<String> args, String usage) {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (!a.startsWith("--") || i + 1 >= args.size()) {
        throw new IllegalArgumentException("usage: " + usage + "; not '" + a + "'");
      }
      o.put(a.substring(2), args.get(++i));
    }
    return o;
  }

  /** {@code parse} of the command line; when it refuses it, the reason on standard error and exit status 2. */
  static <O> O parseOrExit(String[] args, Function<List<String>, O> parse) {
    try {
      return parse.apply(List.of(args));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      throw e; // not reached
    }
  }
}
