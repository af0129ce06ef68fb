package org.rampa.examples.experiment;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.rampa.examples.sim.RunResult;

/**
 * The experiment's verdict in words: which planner admitted most, and the acceptance target
 * (at the lowest offered load where performance-first rejects at least 10 % of arrivals, the best
 * RAMPA configuration should admit at least 15 % more services than performance-first).
 */
public final class ExperimentSummary {

  public static final String PERFORMANCE_FIRST = "performance-first";
  public static final double REJECTION_THRESHOLD = 0.10;
  public static final double TARGET_GAIN = 0.15;

  private ExperimentSummary() {}

  /** The lowest load at which performance-first rejects at least 10 %, if any. */
  public static Optional<RunResult> pressurePoint(List<RunResult> results) {
    return results.stream()
        .filter(r -> r.planner().equals(PERFORMANCE_FIRST) && 1 - r.admissionRatio() >= REJECTION_THRESHOLD)
        .min(Comparator.comparingDouble(RunResult::offeredLoad));
  }

  /** The RAMPA configuration (planner name starting "rampa") that admitted most at {@code load}. */
  public static Optional<RunResult> bestRampa(List<RunResult> results, double load) {
    return results.stream()
        .filter(r -> r.planner().startsWith("rampa") && r.offeredLoad() == load)
        .max(Comparator.comparingInt(RunResult::admitted));
  }

  public static String paragraph(List<RunResult> results) {
    StringBuilder s = new StringBuilder();
    Map<String, Integer> totals = results.stream()
        .collect(Collectors.groupingBy(RunResult::planner, java.util.LinkedHashMap::new, Collectors.summingInt(RunResult::admitted)));
    var ranked = totals.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).toList();
    int violations = results.stream().mapToInt(RunResult::violations).sum();
    var best = ranked.get(0);
    s.append(String.format(Locale.ROOT, "Over all loads, %s admitted the most services (%d)", best.getKey(), best.getValue()));
    if (ranked.size() > 1) {
      var second = ranked.get(1);
      s.append(String.format(Locale.ROOT, ", %.1f %% more than the runner-up %s (%d)",
          100.0 * (best.getValue() - second.getValue()) / Math.max(1, second.getValue()), second.getKey(), second.getValue()));
    }
    Integer pf = totals.get(PERFORMANCE_FIRST);
    boolean runnerUpIsPerformanceFirst = ranked.size() > 1 && ranked.get(1).getKey().equals(PERFORMANCE_FIRST);
    if (pf != null && !best.getKey().equals(PERFORMANCE_FIRST) && !runnerUpIsPerformanceFirst) {
      s.append(String.format(Locale.ROOT, " and %.1f %% more than performance-first (%d)", 100.0 * (best.getValue() - pf) / Math.max(1, pf), pf));
    }
    s.append(String.format(Locale.ROOT, "; SLO violations among admitted services, checked by the plan verifier: %d. ", violations));
    Optional<RunResult> pressure = pressurePoint(results);
    if (pressure.isEmpty()) {
      s.append("Performance-first never rejected 10 % of arrivals: raise the offered load to test the acceptance target.");
      return s.toString();
    }
    RunResult p = pressure.get();
    Optional<RunResult> rampa = bestRampa(results, p.offeredLoad());
    if (rampa.isEmpty()) {
      s.append("No RAMPA configuration ran at that load.");
      return s.toString();
    }
    RunResult r = rampa.get();
    double gain = (double) r.admitted() / Math.max(1, p.admitted()) - 1;
    s.append(String.format(Locale.ROOT,
        "At offered load %.1f, the lowest where performance-first rejects %.1f %% of arrivals, the best RAMPA configuration "
            + "(%s) admits %d services against %d: %+.1f %% (target +%.0f %%: %s).",
        p.offeredLoad(), 100 * (1 - p.admissionRatio()), r.planner(), r.admitted(), p.admitted(), 100 * gain,
        100 * TARGET_GAIN, gain >= TARGET_GAIN ? "reached" : "NOT reached"));
    if (gain < TARGET_GAIN) {
      s.append(" Why, at that load: performance-first's rejections were ").append(p.rejectionReasons())
          .append(" with mean free GPUs by type at rejection ").append(round(p.freeGpusAtRejection()))
          .append("; ").append(r.planner()).append("'s were ").append(r.rejectionReasons())
          .append(" with ").append(round(r.freeGpusAtRejection())).append('.');
    }
    return s.toString();
  }

  private static Map<String, String> round(Map<String, Double> m) {
    return m.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> String.format(Locale.ROOT, "%.1f", e.getValue()),
        (a, b) -> a, java.util.LinkedHashMap::new));
  }
}
