package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigProfile;

/**
 * One GPU being filled: either one whole-GPU option, or isolated options on MIG instances at legal,
 * non-overlapping starts (the rules {@link org.rampa.domain.share.MigLayout} checks).
 */
final class GpuBin {

  final GpuPool pool;
  final List<SegmentOption> options = new ArrayList<>();
  final List<Integer> starts = new ArrayList<>();
  private final boolean[] used;
  private boolean whole;

  GpuBin(GpuPool pool) {
    this.pool = pool;
    this.used = new boolean[pool.partitioning().mig().map(MigGeometry::memorySlices).orElse(0)];
  }

  boolean isEmpty() {
    return options.isEmpty();
  }

  int usedSlices() {
    if (whole) {
      return Math.max(used.length, 1);
    }
    int n = 0;
    for (boolean u : used) {
      n += u ? 1 : 0;
    }
    return n;
  }

  int freeSlices() {
    return whole ? 0 : used.length - usedSlices();
  }

  /**
   * The legal free start for {@code o}'s instance that leaves the most (profile, start) placements
   * possible afterwards, so small instances do not break up room for large ones; empty when none.
   */
  OptionalInt bestStart(SegmentOption o) {
    if (o.whole()) {
      return isEmpty() ? OptionalInt.of(0) : OptionalInt.empty();
    }
    if (whole || used.length == 0) {
      return OptionalInt.empty();
    }
    MigGeometry g = pool.partitioning().requireMig();
    MigProfile p = g.profile(o.profile());
    int best = -1;
    int bestRoom = -1;
    for (int s : p.allowedStarts()) {
      if (free(s, p.memorySlices())) {
        mark(s, p.memorySlices(), true);
        int room = room(g);
        mark(s, p.memorySlices(), false);
        if (room > bestRoom) {
          bestRoom = room;
          best = s;
        }
      }
    }
    return best < 0 ? OptionalInt.empty() : OptionalInt.of(best);
  }

  void add(SegmentOption o, int start) {
    options.add(o);
    starts.add(start);
    if (o.whole()) {
      whole = true;
    } else {
      mark(start, pool.partitioning().requireMig().profile(o.profile()).memorySlices(), true);
    }
  }

  void remove(int index) {
    SegmentOption o = options.remove(index);
    int start = starts.remove(index);
    if (o.whole()) {
      whole = false;
    } else {
      mark(start, pool.partitioning().requireMig().profile(o.profile()).memorySlices(), false);
    }
  }

  GpuConfiguration configuration() {
    List<org.rampa.colocation.Segment> segments = new ArrayList<>();
    for (int i = 0; i < options.size(); i++) {
      segments.add(options.get(i).at(starts.get(i)));
    }
    return new GpuConfiguration(pool.type().name(), segments);
  }

  private int room(MigGeometry g) {
    int n = 0;
    for (MigProfile p : g.profiles()) {
      for (int s : p.allowedStarts()) {
        n += free(s, p.memorySlices()) ? 1 : 0;
      }
    }
    return n;
  }

  private boolean free(int start, int size) {
    for (int i = start; i < start + size; i++) {
      if (used[i]) {
        return false;
      }
    }
    return true;
  }

  private void mark(int start, int size, boolean value) {
    for (int i = start; i < start + size; i++) {
      used[i] = value;
    }
  }
}
