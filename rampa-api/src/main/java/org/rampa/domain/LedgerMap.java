package org.rampa.domain;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable map from string keys in insertion order whose {@link #plus} and {@link #minus}
 * return a new map sharing all but O(log n) of this one: the ledger of a {@link ClusterState}, of
 * which every admission and departure makes a successor. A copied ledger cost O(n) per change,
 * and a large cluster's ledger holds thousands of services (issue 27: the copies were 45 % of a
 * 100 000-arrival simulation on 10 000 GPUs).
 *
 * <p>Two persistent tries: a hash trie from key to entry for look-ups, and a 32-way trie from each
 * entry's insertion number to the entry for the order. A departure leaves an empty slot in the
 * order trie; when the slots outnumber the entries several times over, the next change numbers the
 * entries afresh (O(n), at most once per O(n) changes). Null keys and values are refused; the
 * mutators of {@link Map} throw {@link UnsupportedOperationException}.
 */
final class LedgerMap<V> extends AbstractMap<String, V> {

  private static final int BITS = 5;
  private static final int WIDTH = 1 << BITS;
  private static final int MASK = WIDTH - 1;
  /** Renumber when the order trie has this many slots per entry (plus {@link #SLACK}). */
  private static final int SLOTS_PER_ENTRY = 4;
  private static final int SLACK = 1024;

  private static final LedgerMap<?> EMPTY = new LedgerMap<>(null, null, BITS, 0, 0);

  /** The hash trie: a {@link HashNode}, or null when empty. */
  private final HashNode<V> keys;
  /** The order trie's root: an Object[WIDTH] of sub-arrays, down to arrays of entries; null when nothing was ever added. */
  private final Object[] order;
  /** The order trie's root covers insertion numbers [0, 2^orderBits). */
  private final int orderBits;
  /** The next insertion number. */
  private final int next;
  private final int size;

  private LedgerMap(HashNode<V> keys, Object[] order, int orderBits, int next, int size) {
    this.keys = keys;
    this.order = order;
    this.orderBits = orderBits;
    this.next = next;
    this.size = size;
  }

  @SuppressWarnings("unchecked")
  static <V> LedgerMap<V> empty() {
    return (LedgerMap<V>) EMPTY;
  }

  /** {@code map} itself when it is a ledger map, else its entries in its iteration order. */
  static <V> LedgerMap<V> copyOf(Map<String, ? extends V> map) {
    if (map instanceof LedgerMap<?>) {
      @SuppressWarnings("unchecked")
      LedgerMap<V> ledger = (LedgerMap<V>) map;
      return ledger;
    }
    LedgerMap<V> out = empty();
    for (Map.Entry<String, ? extends V> e : map.entrySet()) {
      out = out.plus(Objects.requireNonNull(e.getKey(), "key"), Objects.requireNonNull(e.getValue(), "value"));
    }
    return out;
  }

  /** This map with {@code key} mapped to {@code value}: last when the key is new, in its place when not. */
  LedgerMap<V> plus(String key, V value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    int hash = spread(key.hashCode());
    Entry<V> old = find(key, hash);
    if (old != null) {
      Entry<V> replaced = new Entry<>(key, value, hash, old.number);
      return new LedgerMap<>(put(keys, replaced, 0), setOrder(order, orderBits, old.number, replaced), orderBits, next, size);
    }
    if (next == Integer.MAX_VALUE || next >= SLOTS_PER_ENTRY * size + SLACK) {
      return renumbered().plus(key, value);
    }
    Entry<V> added = new Entry<>(key, value, hash, next);
    Object[] root = order == null ? new Object[WIDTH] : order;
    int bits = orderBits;
    while (((long) next >>> bits) != 0) {
      Object[] grown = new Object[WIDTH];
      grown[0] = root;
      root = grown;
      bits += BITS;
    }
    return new LedgerMap<>(put(keys, added, 0), setOrder(root, bits, next, added), bits, next + 1, size + 1);
  }

  /** This map without {@code key}; itself when the key is absent. The rest keep their order. */
  LedgerMap<V> minus(String key) {
    Entry<V> gone = key == null ? null : find(key, spread(key.hashCode()));
    if (gone == null) {
      return this;
    }
    if (size == 1) {
      return empty();
    }
    return new LedgerMap<>(remove(keys, gone, 0), setOrder(order, orderBits, gone.number, null), orderBits, next, size - 1);
  }

  private LedgerMap<V> renumbered() {
    LedgerMap<V> out = empty();
    for (Map.Entry<String, V> e : entrySet()) {
      out = out.plus(e.getKey(), e.getValue());
    }
    return out;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    return key instanceof String k && find(k, spread(k.hashCode())) != null;
  }

  @Override
  public V get(Object key) {
    Entry<V> e = key instanceof String k ? find(k, spread(k.hashCode())) : null;
    return e == null ? null : e.getValue();
  }

  @Override
  public Set<Map.Entry<String, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<Map.Entry<String, V>> iterator() {
        return new InOrder<>(order, orderBits, size);
      }
    };
  }

  /** String hashes differ mostly in their low bits; fold the high ones in so every level of the trie sees them. */
  private static int spread(int h) {
    return h ^ (h >>> 16);
  }

  private static final class Entry<V> extends AbstractMap.SimpleImmutableEntry<String, V> {
    private static final long serialVersionUID = 1L;
    final int hash;
    final int number;

    Entry(String key, V value, int hash, int number) {
      super(key, value);
      this.hash = hash;
      this.number = number;
    }
  }

  // --- the hash trie ------------------------------------------------------------------------

  /**
   * A node of the hash trie: a bitmap of the occupied ones of 32 slots (5 bits of the hash per
   * level) and, packed, what each holds: an {@link Entry}, a deeper node, or, past the hash's last
   * bit, an {@code Entry[]} of keys with equal hashes.
   */
  private record HashNode<V>(int bitmap, Object[] slots) {}

  private Entry<V> find(String key, int hash) {
    HashNode<V> node = keys;
    for (int shift = 0; node != null; shift += BITS) {
      int bit = 1 << ((hash >>> shift) & MASK);
      if ((node.bitmap & bit) == 0) {
        return null;
      }
      Object slot = node.slots[Integer.bitCount(node.bitmap & (bit - 1))];
      if (slot instanceof HashNode<?> deeper) {
        @SuppressWarnings("unchecked")
        HashNode<V> d = (HashNode<V>) deeper;
        node = d;
      } else {
        return matching(slot, key);
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static <V> Entry<V> matching(Object slot, String key) {
    if (slot instanceof Entry<?> e) {
      return e.getKey().equals(key) ? (Entry<V>) e : null;
    }
    for (Entry<?> e : (Entry<?>[]) slot) {
      if (e.getKey().equals(key)) {
        return (Entry<V>) e;
      }
    }
    return null;
  }

  /** {@code node} (null: empty) with {@code entry} in place of any entry of its key. */
  private static <V> HashNode<V> put(HashNode<V> node, Entry<V> entry, int shift) {
    int bit = 1 << ((entry.hash >>> shift) & MASK);
    if (node == null) {
      return new HashNode<>(bit, new Object[] {entry});
    }
    int at = Integer.bitCount(node.bitmap & (bit - 1));
    if ((node.bitmap & bit) == 0) {
      Object[] slots = new Object[node.slots.length + 1];
      System.arraycopy(node.slots, 0, slots, 0, at);
      slots[at] = entry;
      System.arraycopy(node.slots, at, slots, at + 1, node.slots.length - at);
      return new HashNode<>(node.bitmap | bit, slots);
    }
    Object[] slots = node.slots.clone();
    slots[at] = putInSlot(slots[at], entry, shift + BITS);
    return new HashNode<>(node.bitmap, slots);
  }

  @SuppressWarnings("unchecked")
  private static <V> Object putInSlot(Object slot, Entry<V> entry, int shift) {
    if (slot instanceof HashNode<?> deeper) {
      return put((HashNode<V>) deeper, entry, shift);
    }
    if (slot instanceof Entry<?> e) {
      if (e.getKey().equals(entry.getKey())) {
        return entry;
      }
      if (e.hash != entry.hash) {
        return put(put(null, (Entry<V>) e, shift), entry, shift);
      }
      return new Entry<?>[] {e, entry};
    }
    Entry<?>[] same = (Entry<?>[]) slot;
    if (same[0].hash != entry.hash) {
      // keys of one hash met here, a level above the one where this key's hash parts from theirs
      int bit = 1 << ((same[0].hash >>> shift) & MASK);
      return put(new HashNode<>(bit, new Object[] {same}), entry, shift);
    }
    for (int i = 0; i < same.length; i++) {
      if (same[i].getKey().equals(entry.getKey())) {
        Entry<?>[] copy = same.clone();
        copy[i] = entry;
        return copy;
      }
    }
    Entry<?>[] grown = Arrays.copyOf(same, same.length + 1);
    grown[same.length] = entry;
    return grown;
  }

  /**
   * {@code node} without {@code entry} (present); null when nothing is left. A node left with one
   * entry and no deeper node is replaced by that entry in its parent, so the trie stays as shallow
   * as its keys need.
   */
  @SuppressWarnings("unchecked")
  private static <V> HashNode<V> remove(HashNode<V> node, Entry<V> entry, int shift) {
    int bit = 1 << ((entry.hash >>> shift) & MASK);
    int at = Integer.bitCount(node.bitmap & (bit - 1));
    Object slot = node.slots[at];
    Object left;
    if (slot instanceof HashNode<?> deeper) {
      HashNode<V> d = remove((HashNode<V>) deeper, entry, shift + BITS);
      left = d != null && d.slots.length == 1 && !(d.slots[0] instanceof HashNode<?>) ? d.slots[0] : d;
    } else if (slot instanceof Entry<?>) {
      left = null;
    } else {
      Entry<?>[] same = (Entry<?>[]) slot;
      Entry<?>[] rest = new Entry<?>[same.length - 1];
      int j = 0;
      for (Entry<?> e : same) {
        if (e != entry) {
          rest[j++] = e;
        }
      }
      left = rest.length == 1 ? rest[0] : rest;
    }
    if (left != null) {
      Object[] slots = node.slots.clone();
      slots[at] = left;
      return new HashNode<>(node.bitmap, slots);
    }
    if (node.slots.length == 1) {
      return null;
    }
    Object[] slots = new Object[node.slots.length - 1];
    System.arraycopy(node.slots, 0, slots, 0, at);
    System.arraycopy(node.slots, at + 1, slots, at, slots.length - at);
    return new HashNode<>(node.bitmap & ~bit, slots);
  }

  // --- the order trie -----------------------------------------------------------------------

  /** A copy of the trie under {@code node} (covering 2^bits numbers) with {@code value} (null: empty) at {@code number}. */
  private static Object[] setOrder(Object[] node, int bits, int number, Object value) {
    Object[] copy = node == null ? new Object[WIDTH] : node.clone();
    int shift = bits - BITS;
    int at = (number >>> shift) & MASK;
    copy[at] = shift == 0 ? value : setOrder((Object[]) copy[at], shift, number, value);
    return copy;
  }

  /** The order trie's entries by insertion number, skipping empty slots and never-filled sub-arrays. */
  private static final class InOrder<V> implements Iterator<Map.Entry<String, V>> {
    private final Object[][] path;
    private final int[] index;
    private int depth;
    private int left;

    InOrder(Object[] root, int bits, int size) {
      int levels = bits / BITS;
      path = new Object[levels][];
      index = new int[levels];
      path[0] = root;
      left = size;
    }

    @Override
    public boolean hasNext() {
      return left > 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Map.Entry<String, V> next() {
      if (left == 0) {
        throw new NoSuchElementException();
      }
      while (true) {
        if (index[depth] == WIDTH) {
          depth--; // left > 0, so an entry is still ahead: the root is never exhausted here
          continue;
        }
        Object slot = path[depth][index[depth]++];
        if (slot == null) {
          continue;
        }
        if (depth == path.length - 1) {
          left--;
          return (Map.Entry<String, V>) slot;
        }
        depth++;
        path[depth] = (Object[]) slot;
        index[depth] = 0;
      }
    }
  }
}
