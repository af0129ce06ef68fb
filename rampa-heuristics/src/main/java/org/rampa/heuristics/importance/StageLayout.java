package org.rampa.heuristics.importance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rampa.perf.StageAssignment;

/**
 * A placement shape without concrete GPUs: the model cut at {@code bounds} into stages, stage
 * {@code k} running on {@code replicas[k]} GPUs of one type (exclusive use).
 */
final class StageLayout {
  private final int[] bounds;
  private final int[] replicas;
  private final int gpus;

  StageLayout(int[] bounds, int[] replicas) {
    this.bounds = bounds.clone();
    this.replicas = replicas.clone();
    this.gpus = Arrays.stream(replicas).sum();
  }

  int gpus() {
    return gpus;
  }

  int stages() {
    return replicas.length;
  }

  /** The stages on concrete GPUs: stage k takes the next {@code replicas[k]} ids, in order. */
  List<StageAssignment> assign(List<String> gpuIds) {
    if (gpuIds.size() != gpus) {
      throw new IllegalArgumentException("layout needs " + gpus + " GPUs, got " + gpuIds.size());
    }
    List<StageAssignment> stages = new ArrayList<>(replicas.length);
    int next = 0;
    for (int k = 0; k < replicas.length; k++) {
      stages.add(StageAssignment.whole(bounds[k], bounds[k + 1], gpuIds.subList(next, next + replicas[k])));
      next += replicas[k];
    }
    return stages;
  }

  @Override
  public String toString() {
    return "StageLayout" + Arrays.toString(bounds) + " x " + Arrays.toString(replicas);
  }
}
