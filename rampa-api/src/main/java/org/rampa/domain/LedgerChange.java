package org.rampa.domain;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A ledger with one entry added at its end or one taken out, as a read-only view of the ledger it
 * changes: the new state copies its ledger from it once (the immutable state copies every map it
 * is given), where a modified copy handed over was copied twice, and a large cluster's ledger has
 * thousands of entries for every admission and departure. Read once, right away, never kept.
 */
final class LedgerChange<V> extends AbstractMap<String, V> {

  private final Map<String, V> base;
  private final String key;
  /** The added value, or null when {@code key} is taken out. */
  private final V added;

  private LedgerChange(Map<String, V> base, String key, V added) {
    this.base = base;
    this.key = key;
    this.added = added;
  }

  /** {@code base} with {@code key} (absent from it) mapped to {@code value}, last. */
  static <V> Map<String, V> plus(Map<String, V> base, String key, V value) {
    return new LedgerChange<>(base, key, java.util.Objects.requireNonNull(value, "value"));
  }

  /** {@code base} without {@code key} (present in it); the rest in their order. */
  static <V> Map<String, V> minus(Map<String, V> base, String key) {
    return new LedgerChange<>(base, key, null);
  }

  @Override
  public int size() {
    return added != null ? base.size() + 1 : base.size() - 1;
  }

  @Override
  public Set<Entry<String, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return LedgerChange.this.size();
      }

      @Override
      public Iterator<Entry<String, V>> iterator() {
        Iterator<Entry<String, V>> rest = base.entrySet().iterator();
        return new Iterator<>() {
          private Entry<String, V> next = advance();
          private boolean addedGiven;

          private Entry<String, V> advance() {
            while (rest.hasNext()) {
              Entry<String, V> e = rest.next();
              if (added != null || !e.getKey().equals(key)) {
                return e;
              }
            }
            if (added != null && !addedGiven) {
              addedGiven = true;
              return new SimpleImmutableEntry<>(key, added);
            }
            return null;
          }

          @Override
          public boolean hasNext() {
            return next != null;
          }

          @Override
          public Entry<String, V> next() {
            if (next == null) {
              throw new NoSuchElementException();
            }
            Entry<String, V> e = next;
            next = advance();
            return e;
          }
        };
      }
    };
  }
}
