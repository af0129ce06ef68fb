package org.rampa.solver;

import java.time.Duration;
import java.util.Arrays;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.testing.ColocationMixes;

/**
 * Timed example (not a test): co-location at 1000 A100-80GB GPUs (250 nodes × 4) with 10, 20 and 40
 * services, fewest GPUs. Services cycle through ParvaGPU's measured models with scenario 6's SLOs
 * times U(0.6, 1.4) and rates scaled so the mix needs about 800 GPUs. Prints per size the heuristic's
 * and the exact planner's median and p95 wall time, the exact planner's gap (GPUs over the LP optimum rounded
 * up, relative to the GPUs used), and the
 * GPUs each used. Usage: {@code ColocationTiming [instances per size]}.
 */
public final class ColocationTiming {
  private ColocationTiming() {}

  static ColocationProblem instance(int services, long seed) {
    return ColocationMixes.parvaGpuAtScale(services, seed);
  }

  public static void main(String[] args) {
    int instances = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    ColocationPlanner heuristic = ColocationPlanners.named("heuristic");
    ColocationPlanner exact = new PatternColocationPlanner(ColocationPlanners.named("heuristic"));
    exact.plan(instance(10, 0), Duration.ofSeconds(10)); // warm-up: natives, JIT
    for (int k = 0; k < 20; k++) {
      heuristic.plan(instance(10, k), Duration.ofSeconds(10));
    }
    for (int services : new int[] {10, 20, 40}) {
      double[] th = new double[instances];
      double[] te = new double[instances];
      double[] gaps = new double[instances];
      StringBuilder gpus = new StringBuilder();
      for (int k = 0; k < instances; k++) {
        ColocationProblem p = instance(services, 1000L * services + k);
        long t0 = System.nanoTime();
        ColocationResult h = heuristic.plan(p, Duration.ofSeconds(10));
        th[k] = (System.nanoTime() - t0) / 1e6;
        t0 = System.nanoTime();
        ColocationResult e = exact.plan(p, Duration.ofSeconds(10));
        te[k] = (System.nanoTime() - t0) / 1e6;
        gaps[k] = e.gap().orElse(Double.NaN);
        gpus.append(String.format(" h=%d/e=%s(%s, bound %s)", h.plan().map(pl -> pl.gpuCount()).orElse(-1),
            e.value().isPresent() ? String.valueOf((int) e.value().getAsDouble()) : "-", e.status(), e.bound().isPresent() ? String.valueOf((int) e.bound().getAsDouble()) : "-"));
      }
      System.out.printf("services %d: heuristic median %.1f ms p95 %.1f ms; exact median %.1f ms p95 %.1f ms; exact gap to its bound (the LP optimum rounded up) median %.2f %% max %.2f %%;%s%n",
          services, pct(th, 0.5), pct(th, 0.95), pct(te, 0.5), pct(te, 0.95), 100 * pct(gaps, 0.5), 100 * pct(gaps, 1.0), gpus);
    }
  }

  private static double pct(double[] v, double q) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) Math.ceil(q * s.length) - 1)];
  }
}
