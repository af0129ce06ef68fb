package org.rampa.examples.experiment;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.rampa.examples.bound.OfflineBound;
import org.rampa.examples.sim.RunResult;

/**
 * Every run of an experiment and the offline bound of every trace, in a fixed order (load, seed,
 * scheduler) whatever the number of threads, with the statistics over seeds the report prints.
 */
public record ExperimentResult(List<RunResult> runs, List<TraceBound> bounds) {

  /** The offline bound of the trace generated at {@code load} from {@code seed}. */
  public record TraceBound(double load, long seed, OfflineBound.Result bound) {}

  public ExperimentResult {
    runs = List.copyOf(runs);
    bounds = List.copyOf(bounds);
  }

  public List<String> schedulers() {
    return List.copyOf(runs.stream().map(RunResult::scheduler).collect(java.util.stream.Collectors.toCollection(LinkedHashSet::new)));
  }

  public List<Double> loads() {
    return List.copyOf(runs.stream().map(RunResult::offeredLoad).collect(java.util.stream.Collectors.toCollection(LinkedHashSet::new)));
  }

  /** The runs of {@code scheduler} at {@code load}, in seed order. */
  public List<RunResult> runs(String scheduler, double load) {
    return runs.stream().filter(r -> r.scheduler().equals(scheduler) && r.offeredLoad() == load).toList();
  }

  public Optional<OfflineBound.Result> bound(double load, long seed) {
    return bounds.stream().filter(b -> b.load() == load && b.seed() == seed).map(TraceBound::bound).findFirst();
  }

  /** Admitted services over seeds, within [0, arrivals]. */
  public Interval admitted(String scheduler, double load) {
    List<RunResult> at = runs(scheduler, load);
    return Interval.amount(at.stream().mapToDouble(RunResult::admitted).toArray(), at.stream().mapToInt(RunResult::arrivals).max().orElse(0));
  }

  /** Rejected fraction of arrivals over seeds. */
  public Interval rejected(String scheduler, double load) {
    return Interval.proportion(runs(scheduler, load).stream().mapToDouble(r -> 1 - r.admissionRatio()).toArray());
  }

  /** The offline bound over seeds, if it was computed, within [0, arrivals]. */
  public Optional<Interval> bound(double load) {
    double[] values = bounds.stream().filter(b -> b.load() == load).mapToDouble(b -> b.bound().admissions()).toArray();
    double arrivals = runs.stream().filter(r -> r.offeredLoad() == load).mapToInt(RunResult::arrivals).max().orElse(Integer.MAX_VALUE);
    return values.length == 0 ? Optional.empty() : Optional.of(Interval.amount(values, arrivals));
  }

  /**
   * Admitted as a percentage of the trace's offline bound, over seeds, if bounds were computed: a
   * ratio (geometric mean, interval in log space) that cannot exceed 100 %, since the bound is an
   * upper bound.
   */
  public Optional<Interval> percentOfBound(String scheduler, double load) {
    List<Double> values = new ArrayList<>();
    for (RunResult r : runs(scheduler, load)) {
      Optional<OfflineBound.Result> b = bound(load, r.seed());
      if (b.isEmpty()) {
        return Optional.empty();
      }
      values.add(b.get().admissions() == 0 ? 1.0 : (double) r.admitted() / b.get().admissions());
    }
    return Optional.of(Interval.ratio(values.stream().mapToDouble(Double::doubleValue).toArray(), 1).asPercent());
  }

  /**
   * How many more {@code scheduler} admits than {@code reference} at {@code load}, in percent: the
   * ratio of admissions paired per seed (both saw the same arrivals), its geometric mean over seeds
   * and interval in log space, as a gain. Empty when {@code reference} did not run at that load
   * (nothing to compare with).
   */
  public Optional<Interval> gainPercent(String scheduler, String reference, double load) {
    List<RunResult> a = runs(scheduler, load);
    List<RunResult> b = runs(reference, load);
    if (a.isEmpty() || b.isEmpty()) {
      return Optional.empty();
    }
    if (a.size() != b.size()) {
      throw new IllegalStateException(scheduler + " ran " + a.size() + " seeds at load " + load + " but " + reference + " " + b.size());
    }
    double[] ratios = new double[a.size()];
    for (int i = 0; i < a.size(); i++) {
      ratios[i] = (double) a.get(i).admitted() / Math.max(1, b.get(i).admitted());
    }
    return Optional.of(Interval.ratio(ratios).asGainPercent());
  }
}
