package org.rampa.solver.colocation;

import java.time.Duration;
import java.util.Arrays;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.scenarios.ColocationMixes;

/**
 * Timed example (not a test): co-location at 1000 A100-80GB GPUs (250 nodes × 4) with 10, 20 and 40
 * services, fewest GPUs. Services cycle through ParvaGPU's measured models with scenario 6's SLOs
 * times U(0.6, 1.4) and rates scaled so the mix needs about 800 GPUs. Prints per size the heuristic's
 * and the exact planner's median and p95 wall time, the exact planner's gap to its LP bound (GPUs over the
 * LP relaxation's optimum rounded up, relative to the GPUs used), how many exact plans are proven
 * OPTIMAL, and the GPUs each used. Usage: {@code ColocationTiming [instances per size]}.
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
      int optimal = 0;
      StringBuilder gpus = new StringBuilder();
      for (int k = 0; k < instances; k++) {
        ColocationProblem p = instance(services, 1000L * services + k);
        long t0 = System.nanoTime();
        ColocationResult h = heuristic.plan(p, Duration.ofSeconds(10));
        th[k] = (System.nanoTime() - t0) / 1e6;
        t0 = System.nanoTime();
        ColocationResult e = exact.plan(p, Duration.ofSeconds(10));
        te[k] = (System.nanoTime() - t0) / 1e6;
        double lpBound = Math.ceil(lpRelaxation(e) - 1e-6);
        gaps[k] = e.value().isPresent() ? (e.value().getAsDouble() - lpBound) / e.value().getAsDouble() : Double.NaN;
        optimal += e.status() == org.rampa.strategy.SolveStatus.OPTIMAL ? 1 : 0;
        gpus.append(String.format(" h=%d/e=%s(%s, LP bound %d)", h.plan().map(pl -> pl.gpuCount()).orElse(-1),
            e.value().isPresent() ? String.valueOf((int) e.value().getAsDouble()) : "-", e.status(), (int) lpBound));
      }
      System.out.printf("services %d: heuristic median %.1f ms p95 %.1f ms; exact median %.1f ms p95 %.1f ms; exact gap to its LP bound (the LP optimum rounded up) median %.2f %% max %.2f %%; %d of %d OPTIMAL;%s%n",
          services, pct(th, 0.5), pct(th, 0.95), pct(te, 0.5), pct(te, 0.95), 100 * pct(gaps, 0.5), 100 * pct(gaps, 1.0), optimal, instances, gpus);
    }
  }

  /** The LP relaxation's optimum the exact planner reports in its reason. */
  static double lpRelaxation(ColocationResult r) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("LP relaxation ([0-9.Ee+-]+)").matcher(r.reason());
    if (!m.find()) {
      throw new IllegalStateException("no LP relaxation in " + r.reason());
    }
    return Double.parseDouble(m.group(1));
  }

  private static double pct(double[] v, double q) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) Math.ceil(q * s.length) - 1)];
  }
}
