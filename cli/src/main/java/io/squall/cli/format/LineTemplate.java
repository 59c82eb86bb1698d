package io.squall.cli.format;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One output line as fixed text and fields, each field with a width and a side. Built from a
 * squeue/sinfo format ({@code "%.18i %-10j %R"}) or from a list of columns (sacct). Values wider
 * than their field are cut, as Slurm does, so columns stay aligned.
 */
public final class LineTemplate {
  /** Text or a field. */
  public sealed interface Piece permits Literal, Field {}

  public record Literal(String text) implements Piece {}

  /**
   * @param key what to print: a specifier letter ({@code "i"}) or a column name ({@code "JobName"})
   * @param width characters, 0 for the value's own width
   * @param right right-justify (squeue's {@code %.18i}); otherwise left
   * @param fit widen to the widest value (sinfo's {@code %#P}) before printing
   */
  public record Field(String key, int width, boolean right, boolean fit) implements Piece {
    public Field withWidth(int newWidth) {
      return new Field(key, newWidth, right, fit);
    }
  }

  /** What happens to a value wider than its field. */
  public enum Overflow {
    /** Keep the first characters (squeue, sinfo). */
    CUT,
    /** Keep the first characters and end with {@code +} (sacct). */
    MARK
  }

  private final List<Piece> pieces;
  private final Overflow overflow;

  private LineTemplate(List<Piece> pieces, Overflow overflow) {
    this.pieces = List.copyOf(pieces);
    this.overflow = overflow;
  }

  /** The widest field a format may ask for: a wider one is a typo that would print megabytes per line. */
  public static final int MAX_WIDTH = 4096;

  /**
   * Reads a squeue/sinfo format: {@code %[.|-|#][width]X}, where {@code .} right-justifies,
   * {@code -} (or nothing) left-justifies and {@code #} fits the widest value; {@code %%} is a
   * percent sign; everything else is printed as written.
   *
   * @param letters the specifier letters the tool knows
   * @throws IllegalArgumentException naming the first bad specifier
   */
  public static LineTemplate percent(String format, Set<Character> letters) {
    List<Piece> pieces = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    int i = 0;
    while (i < format.length()) {
      char c = format.charAt(i++);
      if (c != '%') {
        text.append(c);
        continue;
      }
      if (i < format.length() && format.charAt(i) == '%') {
        text.append('%');
        i++;
        continue;
      }
      boolean right = false;
      boolean fit = false;
      if (i < format.length() && ".-#".indexOf(format.charAt(i)) >= 0) {
        right = format.charAt(i) == '.';
        fit = format.charAt(i) == '#';
        i++;
      }
      int width = 0;
      int digits = i;
      while (i < format.length() && format.charAt(i) >= '0' && format.charAt(i) <= '9') {
        width = Math.min(width * 10 + (format.charAt(i++) - '0'), MAX_WIDTH + 1);
      }
      if (width > MAX_WIDTH) {
        throw new IllegalArgumentException("Invalid format specification: the width " + format.substring(digits, i)
            + " is over " + MAX_WIDTH);
      }
      if (i >= format.length()) {
        throw new IllegalArgumentException("Invalid format specification: '" + format.substring(format.lastIndexOf('%'))
            + "' at the end of the format has no field letter");
      }
      char letter = format.charAt(i++);
      if (!letters.contains(letter)) {
        throw new IllegalArgumentException("Invalid format specification: %" + letter);
      }
      if (text.length() > 0) {
        pieces.add(new Literal(text.toString()));
        text.setLength(0);
      }
      pieces.add(new Field(String.valueOf(letter), width, right, fit));
    }
    if (text.length() > 0) {
      pieces.add(new Literal(text.toString()));
    }
    return new LineTemplate(pieces, Overflow.CUT);
  }

  /** The specifier letters of a tool's one-letter column keys, for {@link #percent}. */
  public static Set<Character> letters(Collection<String> keys) {
    Set<Character> letters = new HashSet<>();
    for (String k : keys) {
      if (k.length() == 1) {
        letters.add(k.charAt(0));
      }
    }
    return letters;
  }

  /** Fields one after another with {@code separator} between them and {@code end} after the last. */
  public static LineTemplate columns(List<Field> fields, String separator, String end, Overflow overflow) {
    List<Piece> pieces = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        pieces.add(new Literal(separator));
      }
      pieces.add(fields.get(i));
    }
    if (!end.isEmpty()) {
      pieces.add(new Literal(end));
    }
    return new LineTemplate(pieces, overflow);
  }

  public List<Field> fields() {
    List<Field> fields = new ArrayList<>();
    for (Piece p : pieces) {
      if (p instanceof Field f) {
        fields.add(f);
      }
    }
    return fields;
  }

  /** The same template with each field replaced (used to settle fitted widths). */
  public LineTemplate mapFields(UnaryOperator<Field> change) {
    List<Piece> changed = new ArrayList<>();
    for (Piece p : pieces) {
      changed.add(p instanceof Field f ? change.apply(f) : p);
    }
    return new LineTemplate(changed, overflow);
  }

  /** One line; trailing blanks are dropped, as nothing reads them and they only get in the way. */
  public String render(Function<Field, String> value) {
    return render(value, overflow);
  }

  /** A header line: names are cut without sacct's {@code +}, as Slurm prints them. */
  public String renderHeader(Function<Field, String> name) {
    return render(name, Overflow.CUT);
  }

  private String render(Function<Field, String> value, Overflow cut) {
    // Written into one builder, padding included: squeue renders 100,000 lines in a C1-only JVM,
    // where a string for each pad and each cell cost a quarter of a second.
    StringBuilder line = new StringBuilder(80);
    for (Piece p : pieces) {
      if (p instanceof Field f) {
        cell(line, value.apply(f), f, cut);
      } else {
        line.append(((Literal) p).text());
      }
    }
    int end = line.length();
    while (end > 0 && Character.isWhitespace(line.charAt(end - 1))) {
      end--;
    }
    line.setLength(end);
    return line.toString();
  }

  /** sacct's rule under the header: dashes as wide as each field. */
  public String rule() {
    return render(f -> "-".repeat(f.width()), Overflow.CUT);
  }

  private static void cell(StringBuilder line, String value, Field f, Overflow overflow) {
    String v = value == null ? "" : value;
    int width = f.width();
    if (width == 0) {
      line.append(v);
    } else if (v.length() > width) {
      if (overflow == Overflow.MARK) {
        line.append(v, 0, width - 1).append('+');
      } else {
        line.append(v, 0, width);
      }
    } else {
      if (!f.right()) {
        line.append(v);
      }
      for (int i = v.length(); i < width; i++) {
        line.append(' ');
      }
      if (f.right()) {
        line.append(v);
      }
    }
  }
}
