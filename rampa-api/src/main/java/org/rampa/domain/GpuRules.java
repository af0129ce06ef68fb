package org.rampa.domain;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.ShareViolation;
import org.rampa.domain.share.ShareViolation.Rule;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;

/**
 * The ledger's rules for the holdings on one GPU (docs/SHARING.md section 1), as a pure function, so
 * that an allocation, a document read back and the verifier all judge a GPU the same way: every
 * placement exists on the type and its holding fits its memory; one mode per GPU (a whole holding
 * alone, contended shares, instances of the configured MIG layout, or NPU templates); MIG
 * legality by {@link MigLayout}; MPS sums, client limits and memory by {@link MpsAdmission};
 * template cores and all memory within the card.
 */
final class GpuRules {

  private GpuRules() {}

  /** The mode a GPU with {@code holdings} and MIG layout {@code layout} (empty: none) is in. */
  static GpuMode mode(List<MigSlice> layout, List<Holding> holdings) {
    if (!layout.isEmpty()) {
      return GpuMode.MIG;
    }
    if (holdings.isEmpty()) {
      return GpuMode.FREE;
    }
    return modeOf(holdings.get(0).placement());
  }

  private static GpuMode modeOf(Placement p) {
    if (p instanceof Whole) {
      return GpuMode.EXCLUSIVE;
    }
    if (p instanceof MpsShare || p instanceof CuMask) {
      return GpuMode.MPS;
    }
    if (p instanceof MigSlice || p instanceof MigSliceMps) {
      return GpuMode.MIG;
    }
    return GpuMode.TEMPLATES;
  }

  /** The first rule the holdings on one GPU break, or empty. */
  static Optional<ShareViolation> check(GpuPartitioning parts, List<MigSlice> layout, List<Holding> holdings, double overcommit) {
    if (!layout.isEmpty()) {
      if (parts.mig().isEmpty()) {
        return violation(Rule.MIG_PROFILE, parts.gpuType() + " has no MIG geometry, so it takes no MIG layout; only MIG-capable types"
            + " (A100, H100, H200) do");
      }
      Optional<ShareViolation> legal = MigLayout.check(parts.requireMig(), layout);
      if (legal.isPresent()) {
        return legal;
      }
    }
    long memory = 0;
    for (int i = 0; i < holdings.size(); i++) {
      Holding h = holdings.get(i);
      try {
        h.placement().requireOn(parts);
      } catch (IllegalArgumentException e) {
        return violation(Rule.PLACEMENT, e.getMessage());
      }
      long room = h.placement().memoryBytes(parts);
      if (h.memoryBytes() > room) {
        return violation(Rule.HOLDING_MEMORY, "a holding needs " + h.memoryBytes() + " B on its " + h.placement().label()
            + ", which has " + room + " B");
      }
      memory += h.memoryBytes();
    }
    GpuMode mode = mode(layout, holdings);
    for (Holding h : holdings) {
      if (modeOf(h.placement()) != mode) {
        return violation(Rule.MODE, "the GPU is in " + mode + " mode" + (layout.isEmpty() ? "" : " (MIG layout " + labels(layout) + ")")
            + "; a " + h.placement().label() + " needs " + modeOf(h.placement()) + " mode, and the mode changes only on an empty GPU");
      }
    }
    if (mode == GpuMode.EXCLUSIVE && holdings.size() > 1) {
      return violation(Rule.MODE, holdings.size() + " holdings, and a whole GPU must be the only one");
    }
    if (mode == GpuMode.MIG) {
      Optional<ShareViolation> instances = checkInstances(layout, holdings);
      if (instances.isPresent()) {
        return instances;
      }
    }
    if (mode == GpuMode.TEMPLATES) {
      int cores = 0;
      for (Holding h : holdings) {
        cores += parts.template(((TemplatePartition) h.placement()).template()).cores();
      }
      if (cores > parts.npuCores()) {
        return violation(Rule.CORE_SUM, "templates use " + cores + " cores of the card's " + parts.npuCores());
      }
    }
    Optional<ShareViolation> mps = new MpsAdmission(overcommit).check(parts, holdings.stream().map(Holding::placement).toList());
    if (mps.isPresent()) {
      return mps;
    }
    if (memory > parts.memoryBytes()) {
      return violation(Rule.CARD_MEMORY, "holdings need " + memory + " B, more than the card's " + parts.memoryBytes() + " B");
    }
    return Optional.empty();
  }

  private static Optional<ShareViolation> checkInstances(List<MigSlice> layout, List<Holding> holdings) {
    if (layout.isEmpty()) {
      return violation(Rule.MIG_INSTANCE, "the GPU has no MIG layout; configure one while it is empty");
    }
    Set<MigSlice> held = new HashSet<>();
    for (Holding h : holdings) {
      MigSlice s = MigLayout.instanceOf(h.placement());
      if (!layout.contains(s)) {
        return violation(Rule.MIG_INSTANCE, s.label() + " is not an instance of the GPU's MIG layout " + labels(layout)
            + "; the layout changes only on an empty GPU");
      }
      if (!held.add(s)) {
        return violation(Rule.MIG_INSTANCE, "MIG instance " + s.label() + " is held twice");
      }
    }
    return Optional.empty();
  }

  static List<String> labels(List<MigSlice> layout) {
    List<String> out = new ArrayList<>(layout.size());
    layout.forEach(s -> out.add(s.label()));
    return out;
  }

  private static Optional<ShareViolation> violation(Rule rule, String message) {
    return Optional.of(new ShareViolation(rule, message));
  }
}
