package org.rampa.heuristics.strategy;

import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * What a stage replica may take as the strategies see it: a GPU (where it is, what it is), the
 * placement on it and what taking it costs. Without sharing every one is a completely free GPU
 * taken whole; with sharing ({@link PlacementContext#units}) also a slot of the shared-slot menu.
 *
 * @param gpu the GPU
 * @param type its type
 * @param cost the cost of holding {@code placement} on it
 * @param clusterIndex the GPU's position in the cluster's list
 * @param placement the placement (for MPS the reservation is the slot's cap; a stage reserves its own memory)
 * @param shape the type for a whole GPU, else the menu's placement shape: replicas of one stage share it
 * @param alpha the slowdown the GPU's incumbents cause a newcomer (1 on a GPU nobody holds)
 * @param memoryCapBytes the most memory a stage on it may need
 * @param unit the position in the list of units it belongs to (its cluster position where no such list is made: {@link WholeGpuClasses})
 */
record FreeGpu(Gpu gpu, GpuType type, double cost, int clusterIndex, Placement placement, String shape, double alpha,
    long memoryCapBytes, int unit) {

  /** A completely free GPU taken whole. */
  static FreeGpu whole(Gpu gpu, GpuType type, double cost, int clusterIndex, long freeMemoryBytes, int unit) {
    return new FreeGpu(gpu, type, cost, clusterIndex, new Whole(), type.name(), 1, freeMemoryBytes, unit);
  }

  boolean isWhole() {
    return placement instanceof Whole;
  }

  String id() {
    return gpu.id();
  }

  String node() {
    return gpu.node();
  }

  String typeName() {
    return type.name();
  }
}
