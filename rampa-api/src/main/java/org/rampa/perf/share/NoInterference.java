package org.rampa.perf.share;

import java.util.List;
import org.rampa.domain.GpuType;

/** No interference: α = 1 (a whole GPU, or a user who measured times with their co-runners). */
public record NoInterference() implements InterferenceModel {

  @Override
  public double slowdown(GpuType type, CoRunner self, List<CoRunner> others) {
    return 1;
  }
}
