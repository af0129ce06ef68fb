package org.rampa.solver.colocation;

import java.util.ArrayList;
import java.util.List;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.PartitionTemplate;
import org.rampa.domain.share.TemplatePartition;

/**
 * The maximal template layouts of an NPU type: multisets of its partition templates whose cores and
 * memory fit the card's together (the verifier's rule) and to which no further template can be
 * added. Templates have no positions, so a multiset is the whole layout. As for MIG ({@link
 * MigLayouts}), co-location pricing needs only these: every legal layout is a subset of a maximal
 * one and a template never lowers a configuration's value (it may stay empty). The 8-core
 * NPU-8C-64GB (templates of 1, 2, 4 and 8 cores) has 10.
 */
public final class TemplateLayouts {
  private TemplateLayouts() {}

  static List<List<TemplatePartition>> maximal(GpuPartitioning part) {
    List<List<TemplatePartition>> out = new ArrayList<>();
    extend(part, part.templates(), 0, 0, 0, new ArrayList<>(), out);
    return out;
  }

  /** Adds templates of index {@code from} or later (a multiset is built in index order once). */
  private static void extend(GpuPartitioning part, List<PartitionTemplate> t, int from, int cores, long memory, List<TemplatePartition> current,
      List<List<TemplatePartition>> out) {
    for (int i = from; i < t.size(); i++) {
      if (fits(part, t.get(i), cores, memory)) {
        current.add(new TemplatePartition(t.get(i).name()));
        extend(part, t, i, cores + t.get(i).cores(), memory + t.get(i).memoryBytes(), current, out);
        current.remove(current.size() - 1);
      }
    }
    for (PartitionTemplate x : t) {
      if (fits(part, x, cores, memory)) {
        return; // not maximal: x still fits
      }
    }
    out.add(List.copyOf(current));
  }

  private static boolean fits(GpuPartitioning part, PartitionTemplate t, int cores, long memory) {
    return cores + t.cores() <= part.npuCores() && memory + t.memoryBytes() <= part.memoryBytes();
  }
}
