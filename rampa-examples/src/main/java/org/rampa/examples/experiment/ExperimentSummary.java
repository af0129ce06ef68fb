package org.rampa.examples.experiment;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.rampa.examples.sim.RunResult;

/**
 * The experiment's verdict in words: the headline (at the lowest offered load where
 * performance-first rejects at least 10 % of arrivals, how many more services the best RAMPA
 * configuration admits, with its interval over seeds, and what share of the offline bound it
 * reaches) and the acceptance target (at least 15 % more than performance-first).
 */
public final class ExperimentSummary {

  public static final String PERFORMANCE_FIRST = "performance-first";
  public static final double REJECTION_THRESHOLD = 0.10;
  public static final double TARGET_GAIN = 0.15;

  private ExperimentSummary() {}

  /** The lowest load at which performance-first rejects at least 10 % of arrivals (mean over seeds), if any. */
  public static Optional<Double> pressureLoad(ExperimentResult result) {
    if (!result.schedulers().contains(PERFORMANCE_FIRST)) {
      return Optional.empty();
    }
    return result.loads().stream()
        .filter(load -> result.rejected(PERFORMANCE_FIRST, load).mean() >= REJECTION_THRESHOLD)
        .min(Comparator.naturalOrder());
  }

  /** The RAMPA configuration (name starting "rampa") with the most admissions at {@code load}, mean over seeds. */
  public static Optional<String> bestRampa(ExperimentResult result, double load) {
    return result.schedulers().stream()
        .filter(name -> name.startsWith("rampa"))
        .max(Comparator.comparingDouble(name -> result.admitted(name, load).mean()));
  }

  public static String paragraph(ExperimentResult result) {
    StringBuilder s = new StringBuilder();
    if (result.runs().isEmpty()) {
      return "No runs: nothing to summarise.";
    }
    int seeds = result.runs(result.schedulers().get(0), result.loads().get(0)).size();
    Map<String, Double> totals = result.runs().stream().collect(Collectors.groupingBy(RunResult::scheduler,
        java.util.LinkedHashMap::new, Collectors.summingDouble(r -> (double) r.admitted() / seeds)));
    var ranked = totals.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).toList();
    int violations = result.runs().stream().mapToInt(RunResult::violations).sum();
    var best = ranked.get(0);
    s.append(String.format(Locale.ROOT, "Over all loads, %s admitted the most services (%.1f per seed)", best.getKey(), best.getValue()));
    if (ranked.size() > 1) {
      var second = ranked.get(1);
      s.append(String.format(Locale.ROOT, ", %.1f %% more than the runner-up %s (%.1f)",
          100.0 * (best.getValue() - second.getValue()) / Math.max(1, second.getValue()), second.getKey(), second.getValue()));
    }
    Double pf = totals.get(PERFORMANCE_FIRST);
    boolean runnerUpIsPerformanceFirst = ranked.size() > 1 && ranked.get(1).getKey().equals(PERFORMANCE_FIRST);
    if (pf != null && !best.getKey().equals(PERFORMANCE_FIRST) && !runnerUpIsPerformanceFirst) {
      s.append(String.format(Locale.ROOT, " and %.1f %% more than performance-first (%.1f)", 100.0 * (best.getValue() - pf) / Math.max(1, pf), pf));
    }
    s.append(String.format(Locale.ROOT, "; SLO violations among admitted services, checked by the plan verifier: %d. ", violations));
    Optional<Double> pressure = pressureLoad(result);
    if (pressure.isEmpty()) {
      s.append("Performance-first never rejected 10 % of arrivals: raise the offered load to test the acceptance target.");
      return s.toString();
    }
    double load = pressure.get();
    Optional<String> rampa = bestRampa(result, load);
    if (rampa.isEmpty()) {
      s.append("No RAMPA configuration ran at that load.");
      return s.toString();
    }
    String r = rampa.get();
    Interval gain = result.gainPercent(r, PERFORMANCE_FIRST, load).orElseThrow();
    s.append(String.format(Locale.ROOT,
        "At offered load %.1f, the lowest where performance-first rejects %.1f %% of arrivals, the best RAMPA configuration "
            + "(%s) admits %.1f services against %.1f: %+.1f %% (%s: %+.1f to %+.1f %%; target +%.0f %%: %s)",
        load, 100 * result.rejected(PERFORMANCE_FIRST, load).mean(), r, result.admitted(r, load).mean(),
        result.admitted(PERFORMANCE_FIRST, load).mean(), gain.mean(), gain.label(), gain.low(), gain.high(), 100 * TARGET_GAIN,
        gain.mean() >= 100 * TARGET_GAIN ? "reached" : "NOT reached"));
    Optional<Interval> ofBound = result.percentOfBound(r, load);
    if (ofBound.isPresent()) {
      Interval pfOfBound = result.percentOfBound(PERFORMANCE_FIRST, load).orElseThrow();
      s.append(String.format(Locale.ROOT, ", and reaches %.1f %% of the offline bound (%.1f to %.1f %%, %s; performance-first %.1f %%)",
          ofBound.get().mean(), ofBound.get().low(), ofBound.get().high(), ofBound.get().label(), pfOfBound.mean()));
    }
    s.append('.');
    if (gain.mean() < 100 * TARGET_GAIN) {
      List<RunResult> pfRuns = result.runs(PERFORMANCE_FIRST, load);
      List<RunResult> rRuns = result.runs(r, load);
      s.append(" Why, at that load (first seed): performance-first's rejections were ").append(pfRuns.get(0).rejectionReasons())
          .append(" with mean free GPUs by type at rejection ").append(round(pfRuns.get(0).freeGpusAtRejection()))
          .append("; ").append(r).append("'s were ").append(rRuns.get(0).rejectionReasons())
          .append(" with ").append(round(rRuns.get(0).freeGpusAtRejection())).append('.');
    }
    return s.toString();
  }

  private static Map<String, String> round(Map<String, Double> m) {
    return m.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> String.format(Locale.ROOT, "%.1f", e.getValue()),
        (a, b) -> a, java.util.LinkedHashMap::new));
  }
}
