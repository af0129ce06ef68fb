package org.rampa.heuristics.strategy;

import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;

/** A completely free GPU as the strategies see it: where it is, what it is, what taking it costs. */
record FreeGpu(Gpu gpu, GpuType type, double cost, int clusterIndex) {

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
