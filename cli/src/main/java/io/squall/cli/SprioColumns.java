package io.squall.cli;

import io.squall.cli.format.Table.Column;
import io.squall.cli.service.Priorities;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * sprio's {@code -o} specifiers with its headers (sprio's print.c): upper-case letters the
 * weighted factor (weight times factor, as a whole number), lower-case the factor itself (seven
 * decimals). Squall computes age, fair-share, job size, partition and QOS; its SITE factor is 0
 * (sprio's weights line says 1), and it has no association or TRES factors (weight 0, empty).
 * The weights line ({@code -w}) has "Weights" as its job id and each factor's weight.
 */
final class SprioColumns {
  /** A line of sprio: a job's factors, or the weights ({@code line} null). */
  record Row(Priorities.Line line, Priorities.Weights weights) {
    boolean isWeights() {
      return line == null;
    }
  }

  private SprioColumns() {}

  static Map<String, Column<Row>> of() {
    Map<String, Column<Row>> c = new LinkedHashMap<>();
    text(c, 'i', "JOBID", "Weights", l -> l.jobIdRaw() != null ? l.jobIdRaw().toString() : l.jobId());
    text(c, 'r', "PARTITION", "", Priorities.Line::partition);
    text(c, 'u', "USER", "", Priorities.Line::user);
    text(c, 'o', "ACCOUNT", "", Priorities.Line::account);
    text(c, 'n', "QOSNAME", "", Priorities.Line::qos);
    text(c, 'Y', "PRIORITY", "", l -> Long.toString(l.priority()));
    // sprio's %y: the priority over the largest a job may have (2^32 - 1).
    text(c, 'y', "PRIORITY", "", l -> String.format(Locale.ROOT, "%16.14f", l.priority() / 4294967295.0));
    text(c, 'S', "SITE", "1", l -> "0");
    text(c, 'N', "NICE", "", l -> l.explicit() ? "0" : Integer.toString(l.nice()));
    factor(c, 'A', "AGE", Priorities.Weights::age, Priorities.Line::age);
    factor(c, 'B', "ASSOC", w -> 0, l -> 0);
    factor(c, 'F', "FAIRSHARE", Priorities.Weights::fairShare, Priorities.Line::fairShare);
    factor(c, 'J', "JOBSIZE", Priorities.Weights::jobSize, Priorities.Line::jobSize);
    factor(c, 'P', "PARTITION", Priorities.Weights::partition, Priorities.Line::partitionFactor);
    factor(c, 'Q', "QOS", Priorities.Weights::qos, Priorities.Line::qosFactor);
    text(c, 'T', "TRES", "", l -> "");
    text(c, 't', "TRES", "", l -> "");
    return c;
  }

  private static void text(Map<String, Column<Row>> c, char letter, String header, String onWeights,
      Function<Priorities.Line, String> value) {
    c.put(String.valueOf(letter), new Column<>(header, r -> r.isWeights() ? onWeights : value.apply(r.line())));
  }

  /** The weighted factor under the upper-case letter and the factor under the lower-case one. */
  private static void factor(Map<String, Column<Row>> c, char letter, String header,
      Function<Priorities.Weights, Number> weight, ToDoubleFunction<Priorities.Line> factor) {
    c.put(String.valueOf(letter), new Column<>(header, r -> r.isWeights() ? weight.apply(r.weights()).toString()
        : String.format(Locale.ROOT, "%.0f", weight.apply(r.weights()).doubleValue() * factor.applyAsDouble(r.line()))));
    c.put(String.valueOf(Character.toLowerCase(letter)), new Column<>(header, r -> r.isWeights()
        ? weight.apply(r.weights()).toString()
        : String.format(Locale.ROOT, "%.7f", factor.applyAsDouble(r.line()))));
  }
}
