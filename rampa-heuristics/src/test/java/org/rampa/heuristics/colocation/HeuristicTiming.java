package org.rampa.heuristics.colocation;

import java.time.Duration;
import java.util.Arrays;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.scenarios.ColocationMixes;

/**
 * Timed example (not a test): the co-location heuristic alone at 1000 A100-80GB GPUs with 10, 20 and
 * 40 services ({@link ColocationMixes#parvaGpuAtScale}), fewest GPUs, after a warm-up in the same
 * JVM. Prints per size the median and p95 wall time, the same for the JVM's CPU time (all threads:
 * on a loaded machine the wall time mostly measures waiting for a core), and the GPUs of each plan.
 * Usage:
 * {@code HeuristicTiming [instances per size] [planner]}.
 */
public final class HeuristicTiming {
  private HeuristicTiming() {}

  public static void main(String[] args) {
    int instances = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    ColocationPlanner planner = ColocationPlanners.named(args.length > 1 ? args[1] : "heuristic");
    for (int k = 0; k < 30; k++) {
      planner.plan(ColocationMixes.parvaGpuAtScale(10 + k % 3 * 10, k), Duration.ofSeconds(10));
    }
    for (int services : new int[] {10, 20, 40}) {
      double[] ms = new double[instances];
      double[] cpu = new double[instances];
      StringBuilder gpus = new StringBuilder();
      for (int k = 0; k < instances; k++) {
        ColocationProblem p = ColocationMixes.parvaGpuAtScale(services, 1000L * services + k);
        long c0 = cpuNanos();
        long t0 = System.nanoTime();
        ColocationResult r = planner.plan(p, Duration.ofSeconds(10));
        ms[k] = (System.nanoTime() - t0) / 1e6;
        cpu[k] = (cpuNanos() - c0) / 1e6;
        gpus.append(' ').append(r.plan().map(pl -> pl.gpuCount()).orElse(-1));
      }
      System.out.printf("services %d: %s wall median %.1f ms p95 %.1f ms, CPU median %.1f ms p95 %.1f ms; GPUs%s%n", services, planner.name(),
          pct(ms, 0.5), pct(ms, 0.95), pct(cpu, 0.5), pct(cpu, 0.95), gpus);
    }
  }

  /** The JVM's CPU time so far, all threads (the planner's, garbage collection, the compiler). */
  private static long cpuNanos() {
    return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
  }

  private static double pct(double[] v, double q) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) Math.ceil(q * s.length) - 1)];
  }
}
