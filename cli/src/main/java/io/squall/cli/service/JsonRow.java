package io.squall.cli.service;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One row of a list answered as rows ({@code {"fields":[names],"rows":[[values],..]}}) seen as the
 * object it stands for: its values by the names said once for every row. Read only; no map is
 * built per row, which at 100,000 jobs was most of what squeue's client did besides parsing.
 */
final class JsonRow extends AbstractMap<String, Object> {
  /** The rows' field names, in order, and each one's place. */
  record Fields(List<String> names, Map<String, Integer> index) {}

  private final Fields fields;
  private final Object[] values;

  /** @param values as many as {@code fields} has names, in their order */
  JsonRow(Fields fields, Object[] values) {
    this.fields = fields;
    this.values = values;
  }

  @Override
  public Object get(Object name) {
    Integer i = fields.index().get(name);
    return i == null ? null : values[i];
  }

  @Override
  public boolean containsKey(Object name) {
    return fields.index().containsKey(name);
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < values.length;
          }

          @Override
          public Entry<String, Object> next() {
            if (next >= values.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new SimpleImmutableEntry<>(fields.names().get(i), values[i]);
          }
        };
      }

      @Override
      public int size() {
        return values.length;
      }
    };
  }
}
