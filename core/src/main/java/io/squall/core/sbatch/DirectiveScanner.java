package io.squall.core.sbatch;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the {@code #SBATCH} directives of a script and splits them into words the way sbatch
 * does: quotes group, a backslash escapes, an unquoted {@code #} begins a trailing comment.
 */
final class DirectiveScanner {
  static final String MAGIC = "#SBATCH";

  /** The options of the directives, in script order, and warnings about ignored lines. */
  record Scan(List<OptionValue> options, List<String> warnings) {}

  private DirectiveScanner() {}

  static Scan scan(String script) {
    String[] lines = script.split("\r?\n", -1);
    if (lines.length == 0 || !lines[0].startsWith("#!")) {
      throw new SbatchException("line 1", "",
          "this does not look like a batch script: the first line must start with #! followed by"
              + " the path to an interpreter (e.g. #!/bin/bash)");
    }
    List<OptionValue> options = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    boolean commandsStarted = false;
    for (int n = 1; n < lines.length; n++) {
      String line = lines[n];
      String where = "line " + (n + 1);
      boolean directive = line.startsWith(MAGIC)
          && (line.length() == MAGIC.length() || Character.isWhitespace(line.charAt(MAGIC.length())));
      if (directive) {
        if (commandsStarted) {
          warnings.add(where + ": #SBATCH after the first command is ignored, as sbatch does");
        } else {
          options.addAll(OptionTokenizer.tokenize(words(line.substring(MAGIC.length()), where), where));
        }
        continue;
      }
      String trimmed = line.strip();
      if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
        commandsStarted = true;
      }
    }
    return new Scan(options, warnings);
  }

  static List<String> words(String text, String where) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && quote != '\'' && i + 1 < text.length()) {
        // A backslash keeps the next character as it is (sbatch's _get_argument).
        if (word == null) {
          word = new StringBuilder();
        }
        word.append(text.charAt(++i));
      } else if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        if (word == null) {
          word = new StringBuilder();
        }
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else if (c == '#') {
        // An unquoted # starts a comment, even inside a word (as in sbatch).
        break;
      } else {
        if (word == null) {
          word = new StringBuilder();
        }
        word.append(c);
      }
    }
    if (quote != 0) {
      throw new SbatchException(where, text.strip(), "unterminated quote " + quote);
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }
}
