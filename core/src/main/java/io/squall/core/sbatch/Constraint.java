package io.squall.core.sbatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A {@code --constraint} expression over node features: {@code a&b}, {@code a|b},
 * {@code (a|b)&c}, matching OR {@code [a|b]} (every node of the job has the same one of them),
 * and counts {@code a*4} (at least four of the job's nodes have {@code a}).
 */
public sealed interface Constraint {
  /** A feature; {@code count} &gt; 0 means "at least this many of the job's nodes". */
  record Feature(String name, int count) implements Constraint {}

  record And(List<Constraint> terms) implements Constraint {}

  record Or(List<Constraint> terms) implements Constraint {}

  /** {@code [...]}: all nodes must satisfy the same alternative of the enclosed OR. */
  record Matching(Constraint inner) implements Constraint {}

  /**
   * Whether one node with these features may be part of the job. Counted features do not bind
   * single nodes (their count binds the gang, see {@link #counts()}).
   */
  default boolean admits(Set<String> features) {
    if (this instanceof Feature f) {
      return f.count() > 0 || features.contains(f.name());
    }
    if (this instanceof And a) {
      return a.terms().stream().allMatch(t -> t.admits(features));
    }
    if (this instanceof Or o) {
      return o.terms().stream().anyMatch(t -> t.admits(features));
    }
    return ((Matching) this).inner().admits(features);
  }

  /** The counted features: at least {@code count} of the job's nodes must have {@code name}. */
  default List<Feature> counts() {
    List<Feature> out = new ArrayList<>();
    collectCounts(this, out);
    return out;
  }

  private static void collectCounts(Constraint c, List<Feature> out) {
    if (c instanceof Feature f) {
      if (f.count() > 0) {
        out.add(f);
      }
    } else if (c instanceof And a) {
      a.terms().forEach(t -> collectCounts(t, out));
    } else if (c instanceof Or o) {
      o.terms().forEach(t -> collectCounts(t, out));
    } else {
      collectCounts(((Matching) c).inner(), out);
    }
  }

  /** The features an alternative asks every node for (ORs aside), e.g. to describe capacity to launch. */
  default List<String> requiredFeatures() {
    List<String> out = new ArrayList<>();
    if (this instanceof Feature f) {
      out.add(f.name());
    } else if (this instanceof And a) {
      a.terms().forEach(t -> out.addAll(t.requiredFeatures()));
    } else if (this instanceof Matching m) {
      out.addAll(m.inner().requiredFeatures());
    }
    return out;
  }

  /**
   * The alternatives among which one must hold for every node: for a matching OR
   * {@code [a|b]&c} these are {@code a&c} and {@code b&c}; otherwise just this constraint.
   */
  default List<Constraint> alternatives() {
    if (this instanceof Matching m) {
      return m.inner() instanceof Or o ? o.terms() : List.of(m.inner());
    }
    if (this instanceof And a) {
        List<List<Constraint>> combos = new ArrayList<>();
        combos.add(new ArrayList<>());
        for (Constraint term : a.terms()) {
          List<List<Constraint>> next = new ArrayList<>();
          for (List<Constraint> combo : combos) {
            for (Constraint alt : term.alternatives()) {
              List<Constraint> extended = new ArrayList<>(combo);
              extended.add(alt);
              next.add(extended);
            }
          }
          combos = next;
        }
        List<Constraint> out = new ArrayList<>();
        for (List<Constraint> combo : combos) {
          out.add(combo.size() == 1 ? combo.get(0) : new And(List.copyOf(combo)));
        }
        return out;
    }
    return List.of(this);
  }

  /** Parses an expression; features are letters, digits, {@code _ - . :}. */
  static Constraint parse(String text) {
    return new ConstraintParser(text).parseAll();
  }
}

/** Recursive descent over {@code |} (lowest), {@code &}, then atoms. */
final class ConstraintParser {
  private final String text;
  private int pos;

  ConstraintParser(String text) {
    this.text = text.strip();
  }

  Constraint parseAll() {
    if (text.isEmpty()) {
      throw new IllegalArgumentException("empty constraint");
    }
    Constraint c = or();
    if (pos < text.length()) {
      throw new IllegalArgumentException("unexpected '" + text.charAt(pos) + "' at position " + (pos + 1));
    }
    return c;
  }

  private Constraint or() {
    List<Constraint> terms = new ArrayList<>();
    terms.add(and());
    while (peek() == '|') {
      pos++;
      terms.add(and());
    }
    return terms.size() == 1 ? terms.get(0) : new Constraint.Or(List.copyOf(terms));
  }

  private Constraint and() {
    List<Constraint> terms = new ArrayList<>();
    terms.add(atom());
    while (peek() == '&' || peek() == ',') {
      pos++;
      terms.add(atom());
    }
    return terms.size() == 1 ? terms.get(0) : new Constraint.And(List.copyOf(terms));
  }

  private Constraint atom() {
    char c = peek();
    if (c == '(' || c == '[') {
      pos++;
      Constraint inner = or();
      char close = c == '(' ? ')' : ']';
      if (peek() != close) {
        throw new IllegalArgumentException("missing '" + close + "' at position " + (pos + 1));
      }
      pos++;
      return c == '[' ? new Constraint.Matching(inner) : inner;
    }
    int start = pos;
    while (pos < text.length() && isFeatureChar(text.charAt(pos))) {
      pos++;
    }
    if (start == pos) {
      throw new IllegalArgumentException(pos < text.length()
          ? "expected a feature name at position " + (pos + 1) + ", found '" + text.charAt(pos) + "'"
          : "expected a feature name at the end");
    }
    String name = text.substring(start, pos);
    int count = 0;
    if (peek() == '*') {
      pos++;
      int digits = pos;
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      if (digits == pos || pos - digits > 6 || Integer.parseInt(text.substring(digits, pos)) == 0) {
        throw new IllegalArgumentException("expected a node count of at least 1 after '" + name + "*'");
      }
      count = Integer.parseInt(text.substring(digits, pos));
    }
    return new Constraint.Feature(name, count);
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private static boolean isFeatureChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.' || c == ':';
  }
}
