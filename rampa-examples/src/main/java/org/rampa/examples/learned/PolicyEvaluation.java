package org.rampa.examples.learned;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.heuristics.learned.ColocationEnvironment;
import org.rampa.examples.experiment.Interval;
import org.rampa.heuristics.learned.LearnedColocationPlanner;

/**
 * The learned policy against the heuristic, the baselines and the column-generation bound on
 * held-out demand mixes: mix {@code i} is {@link DemandMixes#draw} from seed {@code seed + i}
 * (training draws its mixes from splits of its own seed's stream), at every cluster size.
 */
public final class PolicyEvaluation {
  private PolicyEvaluation() {}

  /** One mix at one size: each planner's scale (0 without a plan), the bound (NaN when none was proven). */
  public record MixResult(int gpus, int mix, Map<String, Double> scales, double bound, long[] decisionNanos, int fallbackSteps) {}

  public interface Progress {
    void done(MixResult result);
  }

  /**
   * @param others the planners compared with the policy, by name (the heuristic and the baselines)
   * @param exact the column-generation planner, whose bound every scale is measured against
   */
  public static List<MixResult> run(LearnedColocationPlanner learned, Map<String, ColocationPlanner> others, ColocationPlanner exact,
      List<Integer> sizes, int mixes, long seed, Duration timeLimit, Progress progress) {
    List<MixResult> out = new ArrayList<>();
    for (int gpus : sizes) {
      for (int i = 0; i < mixes; i++) {
        ColocationProblem problem = DemandMixes.draw(new SplittableRandom(seed + i), gpus);
        Map<String, Double> scales = new LinkedHashMap<>();
        ColocationEnvironment.Outcome outcome = learned.run(problem);
        ColocationVerifier.requireValid(problem, outcome.plan(), learned.name());
        scales.put(learned.name(), outcome.plan().scale());
        for (Map.Entry<String, ColocationPlanner> e : others.entrySet()) {
          scales.put(e.getKey(), scale(e.getValue().plan(problem, timeLimit)));
        }
        ColocationResult bounded = exact.plan(problem, timeLimit);
        scales.put(exact.name(), scale(bounded));
        MixResult r = new MixResult(gpus, i, scales, bounded.bound().orElse(Double.NaN), outcome.decisionNanos(), outcome.fallbackSteps());
        out.add(r);
        progress.done(r);
      }
    }
    return out;
  }

  private static double scale(ColocationResult result) {
    return result.status().hasPlan() ? result.value().orElseThrow() : 0;
  }

  /** The median and the 95th percentile of all decision times at one size, in milliseconds. */
  public static double[] decisionMillis(List<MixResult> results, int gpus) {
    long[] all = results.stream().filter(r -> r.gpus() == gpus).flatMapToLong(r -> Arrays.stream(r.decisionNanos())).sorted().toArray();
    if (all.length == 0) {
      return new double[] {Double.NaN, Double.NaN};
    }
    return new double[] {all[all.length / 2] / 1e6, all[(int) Math.min(all.length - 1, Math.ceil(0.95 * all.length) - 1)] / 1e6};
  }

  /**
   * Per size and planner: the scale as a fraction of the bound over the mixes with a proven bound
   * (a ratio: geometric mean, interval in log space, at most 1; mixes play the part of seeds) and
   * the scale (mean and interval), then the learned policy's decision times.
   */
  public static void printSummary(List<MixResult> results, PrintWriter stdout) {
    List<Integer> sizes = results.stream().map(MixResult::gpus).distinct().toList();
    for (int g : sizes) {
      List<MixResult> at = results.stream().filter(r -> r.gpus() == g).toList();
      List<MixResult> bounded = at.stream().filter(r -> !Double.isNaN(r.bound()) && r.bound() > 0).toList();
      stdout.printf(Locale.ROOT, "%n%d GPUs: %d mixes, %d with a proven bound%n", g, at.size(), bounded.size());
      // mixes play the part of seeds: scale / bound is a ratio (geometric mean, interval in log space, at most 1), scale an amount
      Map<String, Interval> ofBound = new LinkedHashMap<>();
      Map<String, Interval> scale = new LinkedHashMap<>();
      for (String planner : at.get(0).scales().keySet()) {
        if (!bounded.isEmpty()) {
          ofBound.put(planner, Interval.ratio(bounded.stream().mapToDouble(r -> r.scales().get(planner) / r.bound()).toArray(), 1));
        }
        scale.put(planner, Interval.amount(at.stream().mapToDouble(r -> r.scales().get(planner)).toArray()));
      }
      stdout.printf(Locale.ROOT, "  scale / bound: %s; scale: %s (mixes as seeds)%n", ofBound.isEmpty() ? "no proven bound"
          : Interval.header(ofBound.values()), Interval.header(scale.values()));
      stdout.printf("  %-16s %-26s %s%n", "planner", "scale / bound", "scale");
      for (String planner : scale.keySet()) {
        stdout.printf(Locale.ROOT, "  %-16s %-26s %s%n", planner, ofBound.containsKey(planner) ? ofBound.get(planner).format(4) : "-",
            scale.get(planner).format(3));
      }
      double[] ms = decisionMillis(results, g);
      int fallbacks = at.stream().mapToInt(MixResult::fallbackSteps).sum();
      stdout.printf(Locale.ROOT, "  learned: decision time per step median %.3f ms, p95 %.3f ms; fallback steps %d%n", ms[0], ms[1], fallbacks);
    }
  }
}
