package io.squall.core.sbatch;

import java.util.ArrayList;
import java.util.List;

/** Turns argument words into {@link OptionValue}s with getopt_long's rules, as sbatch does. */
final class OptionTokenizer {
  private OptionTokenizer() {}

  /**
   * @param words the words of one directive or of the explicit options
   * @param where "line N" or "option", for error messages
   */
  static List<OptionValue> tokenize(List<String> words, String where) {
    List<OptionValue> out = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      String word = words.get(i);
      if (word.startsWith("--") && word.length() > 2) {
        i = readLong(words, i, where, out);
      } else if (word.startsWith("-") && word.length() > 1 && !word.equals("--")) {
        i = readShort(words, i, where, out);
      } else {
        throw new SbatchException(where, word, "not an option (sbatch options start with - or --)");
      }
    }
    return out;
  }

  private static int readLong(List<String> words, int i, String where, List<OptionValue> out) {
    String word = words.get(i);
    int eq = word.indexOf('=');
    String name = eq < 0 ? word.substring(2) : word.substring(2, eq);
    SbatchOption option;
    try {
      option = SbatchOption.byLong(name);
    } catch (IllegalArgumentException e) {
      throw new SbatchException(where, word, e.getMessage());
    }
    String canonical = "--" + option.longName();
    switch (option.arg()) {
      case NONE -> {
        if (eq >= 0) {
          throw new SbatchException(where, word, canonical + " takes no value");
        }
        out.add(new OptionValue(option.canonical(), null, where, canonical));
        return i;
      }
      case OPTIONAL -> {
        String value = eq < 0 ? null : word.substring(eq + 1);
        out.add(new OptionValue(option.canonical(), value, where, value == null ? canonical : canonical + "=" + value));
        return i;
      }
      case REQUIRED -> {
        if (eq >= 0) {
          String value = word.substring(eq + 1);
          out.add(new OptionValue(option.canonical(), value, where, canonical + "=" + value));
          return i;
        }
        if (i + 1 >= words.size()) {
          throw new SbatchException(where, word, canonical + " needs a value");
        }
        String value = words.get(i + 1);
        out.add(new OptionValue(option.canonical(), value, where, canonical + "=" + value));
        return i + 1;
      }
    }
    throw new AssertionError(option);
  }

  private static int readShort(List<String> words, int i, String where, List<OptionValue> out) {
    String word = words.get(i);
    // Several flags may share one dash (-Hv); the first letter taking a value ends the group.
    for (int k = 1; k < word.length(); k++) {
      char letter = word.charAt(k);
      SbatchOption option = SbatchOption.byShort(letter);
      if (option == null) {
        throw new SbatchException(where, word, "unrecognized option -" + letter);
      }
      if (option.arg() == SbatchOption.Arg.NONE) {
        out.add(new OptionValue(option.canonical(), null, where, "-" + letter));
        continue;
      }
      if (k + 1 < word.length()) {
        String value = word.substring(k + 1);
        out.add(new OptionValue(option.canonical(), value, where, "-" + letter + value));
        return i;
      }
      if (option.arg() == SbatchOption.Arg.OPTIONAL) {
        out.add(new OptionValue(option.canonical(), null, where, "-" + letter));
        return i;
      }
      if (i + 1 >= words.size()) {
        throw new SbatchException(where, word, "-" + letter + " needs a value");
      }
      String value = words.get(i + 1);
      out.add(new OptionValue(option.canonical(), value, where, "-" + letter + " " + value));
      return i + 1;
    }
    return i;
  }
}
