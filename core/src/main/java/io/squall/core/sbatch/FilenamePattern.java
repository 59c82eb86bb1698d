package io.squall.core.sbatch;

import static io.squall.core.hostlist.Hostlist.pad;

/**
 * {@code --output}/{@code --error}/{@code --input} file name patterns with Slurm's replacement
 * symbols: {@code %%}, {@code %A} array master id, {@code %a} task id, {@code %j}/{@code %J} job
 * id, {@code %N} first node, {@code %n} node index, {@code %s} step, {@code %t} task,
 * {@code %u} user, {@code %x} job name, {@code %b} task id modulo 10; a number between
 * {@code %} and the letter zero-pads ({@code %3a}). A backslash anywhere turns expansion off.
 */
public final class FilenamePattern {
  private static final String LETTERS = "AaJjNnstuxb%";
  /** Slurm pads to at most ten digits, whatever width is written. */
  private static final int MAX_WIDTH = 10;

  /** What the symbols stand for in one job. */
  public record Context(long jobId, Long arrayJobId, Integer arrayTaskId, String jobName,
      String user, String firstNode, int nodeIndex, String stepId, int taskId) {}

  private FilenamePattern() {}

  static void validate(String pattern) {
    if (pattern.isEmpty()) {
      throw new IllegalArgumentException("empty file name");
    }
    if (pattern.indexOf('\\') >= 0) {
      return;
    }
    for (int i = 0; i < pattern.length(); i++) {
      if (pattern.charAt(i) != '%') {
        continue;
      }
      int j = i + 1;
      while (j < pattern.length() && Character.isDigit(pattern.charAt(j))) {
        j++;
      }
      if (j >= pattern.length() || LETTERS.indexOf(pattern.charAt(j)) < 0) {
        String found = j >= pattern.length() ? "the end" : "'%" + pattern.substring(i + 1, j + 1) + "'";
        throw new IllegalArgumentException("unknown replacement symbol at " + found
            + ": use %% %A %a %J %j %N %n %s %t %u %x %b");
      }
      i = j;
    }
  }

  /** Expands the symbols for one job. */
  public static String expand(String pattern, Context ctx) {
    if (pattern.indexOf('\\') >= 0) {
      return pattern.replace("\\", "");
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c != '%') {
        out.append(c);
        continue;
      }
      int j = i + 1;
      while (j < pattern.length() && Character.isDigit(pattern.charAt(j))) {
        j++;
      }
      if (j >= pattern.length()) {
        out.append(pattern, i, j); // a trailing '%' or '%3' stands for itself
        break;
      }
      int width = width(pattern, i + 1, j);
      char symbol = pattern.charAt(j);
      String value = switch (symbol) {
        case '%' -> "%";
        case 'A' -> pad(ctx.arrayJobId() != null ? ctx.arrayJobId() : ctx.jobId(), width);
        case 'a' -> ctx.arrayTaskId() != null ? pad(ctx.arrayTaskId(), width) : "4294967294";
        case 'b' -> ctx.arrayTaskId() != null ? pad(ctx.arrayTaskId() % 10, width) : "0";
        case 'J' -> pad(ctx.jobId(), width) + (ctx.stepId() == null ? "" : "." + ctx.stepId());
        case 'j' -> pad(ctx.jobId(), width);
        case 'N' -> ctx.firstNode();
        case 'n' -> pad(ctx.nodeIndex(), width);
        case 's' -> ctx.stepId() == null ? "batch" : ctx.stepId();
        case 't' -> pad(ctx.taskId(), width);
        case 'u' -> ctx.user();
        case 'x' -> ctx.jobName();
        default -> throw new IllegalArgumentException("unknown replacement symbol %" + symbol);
      };
      out.append(value);
      i = j;
    }
    return out.toString();
  }

  /** The zero-padding width written in {@code pattern[from, to)}, at most {@link #MAX_WIDTH}. */
  private static int width(String pattern, int from, int to) {
    while (from < to - 1 && pattern.charAt(from) == '0') {
      from++;
    }
    // More than two significant digits is more than MAX_WIDTH: no need to parse (or overflow).
    return from == to ? 0 : to - from > 2 ? MAX_WIDTH : Math.min(MAX_WIDTH, Integer.parseInt(pattern.substring(from, to)));
  }
}
