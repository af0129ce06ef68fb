package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigProfile;

/**
 * One GPU being filled: either one whole-GPU option, or isolated options on MIG instances at legal,
 * non-overlapping starts (the rules {@link org.rampa.domain.share.MigLayout} checks). The used
 * memory slices are a bit mask, so the best start for a profile depends on the mask alone and is
 * looked up in the pool's {@link Starts}.
 */
final class GpuBin {

  final GpuPool pool;
  final List<SegmentOption> options = new ArrayList<>();
  final List<Integer> starts = new ArrayList<>();
  /** Memory slices of the card (0 without MIG). */
  private final int slices;
  private final Starts startTable;
  private long usedMask;
  private boolean whole;
  /** Position in the packing's GPU list (larger = later), so best fit breaks ties as a scan of the list would. */
  long order;

  GpuBin(GpuPool pool, Starts startTable) {
    this.pool = pool;
    this.startTable = startTable;
    this.slices = pool.partitioning().mig().map(MigGeometry::memorySlices).orElse(0);
  }

  boolean isEmpty() {
    return options.isEmpty();
  }

  boolean whole() {
    return whole;
  }

  long usedMask() {
    return usedMask;
  }

  int usedSlices() {
    return whole ? Math.max(slices, 1) : Long.bitCount(usedMask);
  }

  int freeSlices() {
    return whole ? 0 : slices - Long.bitCount(usedMask);
  }

  /**
   * The legal free start for {@code o}'s instance that leaves the most (profile, start) placements
   * possible afterwards, so small instances do not break up room for large ones; empty when none.
   */
  OptionalInt bestStart(SegmentOption o) {
    if (o.whole()) {
      return isEmpty() ? OptionalInt.of(0) : OptionalInt.empty();
    }
    if (whole || slices == 0) {
      return OptionalInt.empty();
    }
    int s = startTable.best(usedMask, o.profile());
    return s < 0 ? OptionalInt.empty() : OptionalInt.of(s);
  }

  void add(SegmentOption o, int start) {
    options.add(o);
    starts.add(start);
    if (o.whole()) {
      whole = true;
    } else {
      usedMask |= Starts.bits(start, startTable.profile(o.profile()).memorySlices());
    }
  }

  /** Removes and returns the option at {@code index}. */
  SegmentOption remove(int index) {
    SegmentOption o = options.remove(index);
    int start = starts.remove(index);
    if (o.whole()) {
      whole = false;
    } else {
      usedMask &= ~Starts.bits(start, startTable.profile(o.profile()).memorySlices());
    }
    return o;
  }

  GpuConfiguration configuration() {
    List<org.rampa.colocation.Segment> segments = new ArrayList<>();
    for (int i = 0; i < options.size(); i++) {
      segments.add(options.get(i).at(starts.get(i)));
    }
    return new GpuConfiguration(pool.type().name(), segments);
  }

  /**
   * Per used-slice mask and profile of one MIG geometry, the best free start (the one leaving the
   * most (profile, start) placements possible), computed once per mask: packing asks the same
   * question for hundreds of GPUs in the same state.
   */
  static final class Starts {
    private final MigGeometry geometry;
    private final Map<String, Integer> profileIndex = new HashMap<>();
    private final Map<Long, int[]> bestByMask = new HashMap<>();

    Starts(MigGeometry geometry) {
      this.geometry = geometry;
      if (geometry != null) {
        if (geometry.memorySlices() > 62) {
          throw new IllegalArgumentException("MIG geometry " + geometry.name() + " has " + geometry.memorySlices() + " memory slices; the packing handles at most 62");
        }
        for (int i = 0; i < geometry.profiles().size(); i++) {
          profileIndex.put(geometry.profiles().get(i).name(), i);
        }
      }
    }

    MigProfile profile(String name) {
      return geometry.profiles().get(index(name));
    }

    /** The best free start of {@code profile} on a GPU whose used slices are {@code mask}; -1 when none. */
    int best(long mask, String profile) {
      return bestByMask.computeIfAbsent(mask, this::bestStarts)[index(profile)];
    }

    private int index(String profile) {
      Integer i = profileIndex.get(profile);
      if (i == null) {
        geometry.profile(profile); // throws naming the profile and the geometry's profiles
      }
      return i;
    }

    private int[] bestStarts(long mask) {
      List<MigProfile> profiles = geometry.profiles();
      int[] out = new int[profiles.size()];
      for (int i = 0; i < profiles.size(); i++) {
        MigProfile p = profiles.get(i);
        int best = -1;
        int bestRoom = -1;
        for (int s : p.allowedStarts()) {
          long b = bits(s, p.memorySlices());
          if ((mask & b) == 0) {
            int room = room(mask | b);
            if (room > bestRoom) {
              bestRoom = room;
              best = s;
            }
          }
        }
        out[i] = best;
      }
      return out;
    }

    private int room(long mask) {
      int n = 0;
      for (MigProfile p : geometry.profiles()) {
        for (int s : p.allowedStarts()) {
          n += (mask & bits(s, p.memorySlices())) == 0 ? 1 : 0;
        }
      }
      return n;
    }

    static long bits(int start, int size) {
      return ((1L << size) - 1) << start;
    }
  }
}
