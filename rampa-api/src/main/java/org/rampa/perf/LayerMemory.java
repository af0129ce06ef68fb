package org.rampa.perf;

import java.util.List;

/**
 * Every layer's memory in the two parts a stage combines (as {@link StageCursor} does): a stage
 * {@code [a, b)} needs {@code Σ additiveBytes[a..b) + max peakBytes[a..b)}. For tables that take
 * memory layer by layer, such as the split's {@code LayerCostTable}.
 *
 * @param additiveBytes per layer, weights plus per-request state at the batch size
 * @param peakBytes per layer, the transient working set at the batch size
 */
public record LayerMemory(List<Long> additiveBytes, List<Long> peakBytes) {

  public LayerMemory {
    additiveBytes = List.copyOf(additiveBytes);
    peakBytes = List.copyOf(peakBytes);
  }
}
