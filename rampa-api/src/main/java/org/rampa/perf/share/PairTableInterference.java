package org.rampa.perf.share;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;

/**
 * A user's measured pair table: {@code slowdowns.get(a).get(b)} is how much service {@code a} slows
 * next to service {@code b}. With several co-runners the pair slowdowns multiply (an assumption:
 * pairs are what users measure). When any pair is missing, {@code fallback} answers instead.
 */
public record PairTableInterference(Map<String, Map<String, Double>> slowdowns, InterferenceModel fallback) implements InterferenceModel {

  public PairTableInterference {
    Objects.requireNonNull(fallback, "fallback");
    Map<String, Map<String, Double>> copy = new HashMap<>();
    slowdowns.forEach((a, row) -> {
      row.forEach((b, alpha) -> {
        if (!(alpha >= 1) || !Double.isFinite(alpha)) {
          throw Invalid.value("pairTable[" + a + "][" + b + "]", alpha, "a slowdown must be a finite number >= 1");
        }
      });
      copy.put(a, Map.copyOf(row));
    });
    slowdowns = Map.copyOf(copy);
  }

  @Override
  public double slowdown(GpuType type, CoRunner self, List<CoRunner> others) {
    Map<String, Double> row = slowdowns.getOrDefault(self.service(), Map.of());
    double alpha = 1;
    for (CoRunner o : InterferenceModel.contending(self, others)) {
      Double pair = row.get(o.service());
      if (pair == null) {
        return fallback.slowdown(type, self, others);
      }
      alpha *= pair;
    }
    return alpha;
  }
}
