package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.rampa.colocation.CuMaskPart;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.PartitionTemplate;

/**
 * One GPU being filled: either one whole-GPU option, or isolated options on MIG instances at legal,
 * non-overlapping starts (tracked by a {@link MigLayout}, the rules it checks), or on NPU
 * partition templates whose cores fit the card's, or AMD CU masks whose eighths of the card's CUs
 * fit its eight ({@link CuMaskPart}; the packing takes only masks priced for the fullest card,
 * {@link org.rampa.colocation.SegmentMenu#cuMaskOptionsForAnyCard}, so no mask added later lowers an
 * earlier one's throughput). The used units (memory slices, cores, eighths) are a bit mask, so the
 * best start for a part depends on the mask alone and is looked up in the pool's {@link Starts}.
 */
final class GpuBin {

  final GpuPool pool;
  final List<SegmentOption> options = new ArrayList<>();
  final List<Integer> starts = new ArrayList<>();
  /** Units of the card: memory slices with MIG, cores with templates, eighths with CU masks, 0 otherwise. */
  private final int slices;
  private final Starts startTable;
  /** The MIG instances placed, on a MIG type; null otherwise. */
  private MigLayout layout;
  /** The cores the templates (the eighths the CU masks) take, as the lowest bits, on a template (CU-mask) type. */
  private long coreMask;
  private boolean whole;
  /** Position in the packing's GPU list (larger = later), so best fit breaks ties as a scan of the list would. */
  long order;

  GpuBin(GpuPool pool, Starts startTable) {
    this.pool = pool;
    this.startTable = startTable;
    this.slices = startTable.units();
    this.layout = startTable.geometry == null ? null : MigLayout.empty(startTable.geometry);
  }

  boolean isEmpty() {
    return options.isEmpty();
  }

  boolean whole() {
    return whole;
  }

  /** The used units as bits: the MIG layout's memory slices, or the templates' cores. */
  long usedMask() {
    return layout != null ? layout.usedMask() : coreMask;
  }

  int usedSlices() {
    return whole ? Math.max(slices, 1) : Long.bitCount(usedMask());
  }

  int freeSlices() {
    return whole ? 0 : slices - Long.bitCount(usedMask());
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
    if (o.cuMask() != null) {
      return Long.bitCount(coreMask) + o.cuMask().eighths() <= slices ? OptionalInt.of(0) : OptionalInt.empty();
    }
    int s = layout != null ? startTable.best(layout, o.profile()) : startTable.bestTemplate(coreMask, o.profile());
    return s < 0 ? OptionalInt.empty() : OptionalInt.of(s);
  }

  void add(SegmentOption o, int start) {
    options.add(o);
    starts.add(start);
    if (o.whole()) {
      whole = true;
    } else if (o.cuMask() != null) {
      coreMask = Starts.lowBits(Long.bitCount(coreMask) + o.cuMask().eighths());
    } else if (layout != null) {
      layout = layout.with(o.profile(), start);
    } else {
      coreMask = Starts.lowBits(Long.bitCount(coreMask) + startTable.cores(o.profile()));
    }
  }

  /** Removes and returns the option at {@code index}. */
  SegmentOption remove(int index) {
    SegmentOption o = options.remove(index);
    int start = starts.remove(index);
    if (o.whole()) {
      whole = false;
    } else if (o.cuMask() != null) {
      coreMask = Starts.lowBits(Long.bitCount(coreMask) - o.cuMask().eighths());
    } else if (layout != null) {
      layout = layout.without(o.profile(), start);
    } else {
      coreMask = Starts.lowBits(Long.bitCount(coreMask) - startTable.cores(o.profile()));
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
   * Per used-slice mask and profile of one MIG geometry, the best free start ({@link
   * MigLayout#bestStart}), computed once per mask: packing asks the same question for hundreds of
   * GPUs in the same state. For NPU templates the mask holds the used cores as its lowest bits
   * (cores are not positions, so any template fits as long as its cores do) and every start is 0;
   * for CU masks, likewise the used eighths of the card's CUs.
   */
  static final class Starts {
    private final MigGeometry geometry;
    private final Map<String, PartitionTemplate> templates = new HashMap<>();
    private final int units;
    private final Map<String, Integer> profileIndex = new HashMap<>();
    private final Map<Long, int[]> bestByMask = new HashMap<>();

    /** The start table of {@code partitioning}'s MIG geometry, NPU templates or CU masks (none: whole GPUs only). */
    static Starts of(GpuPartitioning partitioning) {
      return new Starts(partitioning);
    }

    private Starts(GpuPartitioning partitioning) {
      this.geometry = partitioning.mig().orElse(null);
      if (geometry != null) {
        MigLayout.empty(geometry); // throws when the geometry has more memory slices than a layout tracks
        for (int i = 0; i < geometry.profiles().size(); i++) {
          profileIndex.put(geometry.profiles().get(i).name(), i);
        }
        units = geometry.memorySlices();
        return;
      }
      if (partitioning.templates().isEmpty()) {
        units = partitioning.computeUnits() > 0 ? CuMaskPart.PARTS_PER_CARD : 0;
        return;
      }
      units = partitioning.npuCores();
      if (units > 62) {
        throw new IllegalArgumentException(partitioning.gpuType() + " has " + units + " cores; the packing handles at most 62");
      }
      for (PartitionTemplate t : partitioning.templates()) {
        // the mask counts cores only: a template holding more than its cores' share of the memory could overfill the card
        if ((double) t.memoryBytes() / partitioning.memoryBytes() > (double) t.cores() / units + 1e-12) {
          throw new IllegalArgumentException("template " + t.name() + " of " + partitioning.gpuType() + " holds " + t.memoryBytes()
              + " bytes, more than its " + t.cores() + " of " + units + " cores' share of the card's memory; the packing counts cores only");
        }
        templates.put(t.name(), t);
      }
    }

    /** Units of the card the mask counts: memory slices, cores, eighths of the CUs, or 0 (whole GPUs only). */
    int units() {
      return units;
    }

    /** Cores template {@code template} takes. */
    int cores(String template) {
      PartitionTemplate t = templates.get(template);
      if (t == null) {
        throw new IllegalArgumentException(template + " is not a template of this GPU type");
      }
      return t.cores();
    }

    /** The best free start of {@code profile} on {@code layout}; -1 when none. */
    int best(MigLayout layout, String profile) {
      int i = index(profile);
      return bestByMask.computeIfAbsent(layout.usedMask(), m -> {
        int[] out = new int[geometry.profiles().size()];
        for (int p = 0; p < out.length; p++) {
          out[p] = layout.bestStart(geometry.profiles().get(p));
        }
        return out;
      })[i];
    }

    /** 0 when template {@code template} fits beside the cores {@code mask} holds; -1 when it does not. */
    int bestTemplate(long mask, String template) {
      return Long.bitCount(mask) + cores(template) <= units ? 0 : -1;
    }

    private int index(String profile) {
      Integer i = profileIndex.get(profile);
      if (i == null) {
        if (geometry == null) {
          throw new IllegalArgumentException(profile + " is neither a MIG profile nor a template of this GPU type");
        }
        geometry.profile(profile); // throws naming the profile and the geometry's profiles
      }
      return i;
    }

    /** The lowest {@code n} bits. */
    static long lowBits(int n) {
      return (1L << n) - 1;
    }
  }
}
