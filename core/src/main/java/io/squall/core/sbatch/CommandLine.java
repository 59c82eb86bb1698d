package io.squall.core.sbatch;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an sbatch command line into options, the script, and the words after the script, using
 * the same option table as the directive parser (so {@code -t 10 job.sh} knows 10 is a value).
 *
 * @param script the script's path, or null when none was named (sbatch then reads standard input)
 */
public record CommandLine(List<String> options, String script, List<String> afterScript) {
  public CommandLine {
    options = List.copyOf(options);
    afterScript = List.copyOf(afterScript);
  }

  /** @throws SbatchException for an unknown option or a missing value */
  public static CommandLine split(List<String> words) {
    List<String> options = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("--")) {
        // getopt: "--" ends the options; the next word is the script.
        return i + 1 < words.size() ? new CommandLine(options, words.get(i + 1), words.subList(i + 2, words.size()))
            : new CommandLine(options, null, List.of());
      }
      if (!w.startsWith("-") || w.equals("-")) {
        return new CommandLine(options, w, words.subList(i + 1, words.size()));
      }
      options.add(w);
      if (takesSeparateValue(w)) {
        if (i + 1 >= words.size()) {
          throw new SbatchException("option", w, "needs a value");
        }
        options.add(words.get(++i));
      }
    }
    return new CommandLine(options, null, List.of());
  }

  private static boolean takesSeparateValue(String w) {
    if (w.startsWith("--")) {
      if (w.contains("=")) {
        return false;
      }
      try {
        return SbatchOption.byLong(w.substring(2)).arg() == SbatchOption.Arg.REQUIRED;
      } catch (IllegalArgumentException e) {
        throw new SbatchException("option", w, e.getMessage());
      }
    }
    // A short group (-Hn 4): only the last letter can take the next word as its value.
    for (int k = 1; k < w.length(); k++) {
      SbatchOption o = SbatchOption.byShort(w.charAt(k));
      if (o == null) {
        throw new SbatchException("option", w, "unrecognized option -" + w.charAt(k));
      }
      if (o.arg() != SbatchOption.Arg.NONE) {
        return k == w.length() - 1 && o.arg() == SbatchOption.Arg.REQUIRED;
      }
    }
    return false;
  }
}
