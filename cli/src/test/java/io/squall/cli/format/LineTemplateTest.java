package io.squall.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.cli.format.Table.Column;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LineTemplateTest {
  private static final Set<Character> LETTERS = Set.of('i', 'j', 'P');

  private static final Map<String, Column<Map<String, String>>> COLUMNS = new LinkedHashMap<>();

  static {
    COLUMNS.put("i", new Column<>("JOBID", r -> r.get("id")));
    COLUMNS.put("j", new Column<>("NAME", r -> r.get("name")));
    COLUMNS.put("P", new Column<>("PARTITION", r -> r.get("part")));
  }

  private static List<String> lines(String format, boolean header, List<Map<String, String>> rows) {
    return new Table<>(LineTemplate.percent(format, LETTERS), COLUMNS).lines(rows, header, false);
  }

  @Test
  void dotRightJustifiesDashOrNothingLeftJustifies() {
    List<String> out = lines("%.6i|%-6j|%6P|", true, List.of(Map.of("id", "42", "name", "train", "part", "gpu")));
    assertThat(out).containsExactly(" JOBID|NAME  |PARTIT|", "    42|train |gpu   |");
  }

  @Test
  void valuesWiderThanTheFieldAreCut() {
    List<String> out = lines("%.4j:", false, List.of(Map.of("id", "1", "name", "verylongname", "part", "p")));
    assertThat(out).containsExactly("very:");
  }

  @Test
  void noWidthMeansTheValuesOwnWidthAndTrailingBlanksGo() {
    List<String> out = lines("%i %j   ", false, List.of(Map.of("id", "7", "name", "a", "part", "p")));
    assertThat(out).containsExactly("7 a");
  }

  @Test
  void hashFitsTheWidestValueOrHeader() {
    List<String> out = lines("%#P|%i", true, List.of(Map.of("id", "1", "name", "a", "part", "gpu"),
        Map.of("id", "2", "name", "b", "part", "interactive")));
    assertThat(out).containsExactly("PARTITION  |JOBID", "gpu        |1", "interactive|2");
  }

  @Test
  void aTableWithoutFittedFieldsRendersEachRowOnItsOwnAsItsLinesDo() {
    List<Map<String, String>> rows = List.of(Map.of("id", "1", "name", "averylongname", "part", "gpu"),
        Map.of("id", "22", "name", "b", "part", "cpu"));
    Table<Map<String, String>> table = new Table<>(LineTemplate.percent("%.4i %-6j %P  ", LETTERS), COLUMNS);
    assertThat(table.fitted()).isFalse();
    List<String> lines = table.lines(rows, true, false);
    assertThat(lines).containsExactly("JOBI NAME   PARTITION", "   1 averyl gpu", "  22 b      cpu");
    assertThat(List.of(table.header(), table.line(rows.get(0)), table.line(rows.get(1)))).isEqualTo(lines);
    assertThat(new Table<>(LineTemplate.percent("%#P %i", LETTERS), COLUMNS).fitted()).isTrue();
  }

  @Test
  void percentPercentIsALiteral() {
    assertThat(lines("%i%%", false, List.of(Map.of("id", "5", "name", "", "part", "")))).containsExactly("5%");
  }

  @Test
  void unknownOrUnfinishedSpecifiersAreRejected() {
    assertThatThrownBy(() -> LineTemplate.percent("%.5z", LETTERS)).hasMessage("Invalid format specification: %z");
    assertThatThrownBy(() -> LineTemplate.percent("%i %.10", LETTERS)).hasMessageContaining("no field letter");
  }

  @Test
  void sacctStyleMarksCutValuesAndDrawsARule() {
    LineTemplate t = LineTemplate.columns(List.of(new LineTemplate.Field("j", 5, true, false),
        new LineTemplate.Field("i", 4, false, false)), " ", "", LineTemplate.Overflow.MARK);
    List<String> out = new Table<>(t, COLUMNS).lines(List.of(Map.of("id", "1", "name", "abcdefgh", "part", "")),
        true, true);
    assertThat(out).containsExactly(" NAME JOBI", "----- ----", "abcd+ 1");
  }
}
