package org.rampa.heuristics.strategy;

import java.util.Comparator;
import org.rampa.domain.GpuType;

/**
 * The conventional methods the experiments compare RAMPA with. Each one ranks the free GPUs by its
 * own rule, takes them in that order (replicas of a stage are the next GPUs of one type), and cuts
 * the model by its own split rule; none of them looks at importance (the plan's cost is still
 * reported under the problem's importance model).
 */
enum Baseline {
  /** Fastest free GPUs (effective FLOP/s), fewest stages, then fewest replicas; min-period split. */
  PERFORMANCE_FIRST("performance-first", SearchOrder.FEWEST_STAGES, SplitRule.MIN_PERIOD, Rank.FASTEST),
  /** Fewest GPUs in total, largest memory first (so the model fits in as few as possible); min-period split. */
  FEWEST_GPUS("fewest-gpus", SearchOrder.FEWEST_GPUS, SplitRule.MIN_PERIOD, Rank.LARGEST_MEMORY),
  /** GPipe-style: equal layer counts per stage, on the fastest free GPUs, fewest stages. */
  EVEN_SPLIT("even-split", SearchOrder.FEWEST_STAGES, SplitRule.EVEN_LAYERS, Rank.FASTEST),
  /** PipeDream-style: stages of balanced compute, on the fastest free GPUs, fewest stages. */
  COMPUTE_BALANCED("compute-balanced", SearchOrder.FEWEST_STAGES, SplitRule.COMPUTE_BALANCED, Rank.FASTEST),
  /**
   * The first free GPUs in cluster order on which the service fits (moving on to the next run of
   * another GPU type when it does not), fewest stages; min-period split.
   */
  FIRST_FIT("first-fit", SearchOrder.FEWEST_STAGES, SplitRule.MIN_PERIOD, Rank.CLUSTER_ORDER);

  enum SearchOrder {
    /** k = 1, 2, ... stages; for each, r = 1, 2, ... replicas per stage. */
    FEWEST_STAGES,
    /** n = 1, 2, ... GPUs in total; for each, fewest stages k with k·r = n. */
    FEWEST_GPUS
  }

  /** How a baseline ranks free GPUs: by their types, then (every rank) in cluster order ({@link RankedFreeGpus}). */
  enum Rank {
    FASTEST(Comparator.comparingDouble((GpuType t) -> -t.effectiveFlopsPerSecond())
        .thenComparingDouble(t -> -t.effectiveBandwidthBytesPerSecond())),
    LARGEST_MEMORY(Comparator.comparingLong((GpuType t) -> -t.memoryBytes())
        .thenComparingDouble(t -> -t.effectiveFlopsPerSecond())),
    CLUSTER_ORDER((a, b) -> 0);

    final Comparator<GpuType> byType;

    Rank(Comparator<GpuType> byType) {
      this.byType = byType;
    }
  }

  final String strategyName;
  final SearchOrder search;
  final SplitRule split;
  final Rank rank;

  Baseline(String strategyName, SearchOrder search, SplitRule split, Rank rank) {
    this.strategyName = strategyName;
    this.search = search;
    this.split = split;
    this.rank = rank;
  }
}
