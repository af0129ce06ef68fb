package org.rampa.solver.colocation;

import java.util.ArrayList;
import java.util.List;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;

/**
 * The maximal legal MIG layouts of a geometry: sets of (profile, start) with allowed starts and
 * non-overlapping memory slices to which no further instance can be added. Co-location pricing
 * needs only these: every legal layout is a subset of a maximal one and an instance never lowers a
 * configuration's value (it may stay empty). A100/H100/H200 have 78.
 */
public final class MigLayouts {
  private MigLayouts() {}

  static List<List<MigSlice>> maximal(MigGeometry g) {
    List<MigSlice> candidates = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    for (MigProfile p : g.profiles()) {
      for (int s : p.allowedStarts()) {
        candidates.add(new MigSlice(p.name(), s));
        sizes.add(p.memorySlices());
      }
    }
    List<List<MigSlice>> out = new ArrayList<>();
    extend(candidates, sizes, 0, new boolean[g.memorySlices()], new ArrayList<>(), out);
    return out;
  }

  private static void extend(List<MigSlice> c, List<Integer> sizes, int from, boolean[] used, List<MigSlice> current, List<List<MigSlice>> out) {
    for (int i = from; i < c.size(); i++) {
      if (fits(used, c.get(i).start(), sizes.get(i))) {
        mark(used, c.get(i).start(), sizes.get(i), true);
        current.add(c.get(i));
        extend(c, sizes, i + 1, used, current, out);
        current.remove(current.size() - 1);
        mark(used, c.get(i).start(), sizes.get(i), false);
      }
    }
    for (int i = 0; i < c.size(); i++) {
      if (fits(used, c.get(i).start(), sizes.get(i))) {
        return; // not maximal: candidate i still fits
      }
    }
    out.add(List.copyOf(current));
  }

  private static boolean fits(boolean[] used, int start, int size) {
    for (int k = start; k < start + size; k++) {
      if (used[k]) {
        return false;
      }
    }
    return true;
  }

  private static void mark(boolean[] used, int start, int size, boolean v) {
    for (int k = start; k < start + size; k++) {
      used[k] = v;
    }
  }
}
