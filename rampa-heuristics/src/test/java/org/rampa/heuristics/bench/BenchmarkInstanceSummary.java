package org.rampa.heuristics.bench;

import java.time.Duration;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.Strategies;

/** Prints what each strategy decides on the benchmark instances (status, cost, stages, statistics). */
public final class BenchmarkInstanceSummary {
  private BenchmarkInstanceSummary() {}

  public static void main(String[] args) {
    for (boolean perGpu : new boolean[] {false, true}) {
     for (long seed : new long[] {1, 2}) {
      for (double lambda : new double[] {2, 5, 20}) {
        PlacementProblem p = LargeClusterInstance.problem(seed, lambda, Duration.ofSeconds(1), perGpu);
        System.out.printf("%s weights, seed %d, %.0f req/s: %d free GPUs%n", perGpu ? "per-GPU" : "per-type", seed, lambda,
            p.state().freeGpus().size());
        for (String s : new String[] {"greedy", "dp", "performance-first", "fewest-gpus", "even-split", "compute-balanced", "first-fit"}) {
          long start = System.nanoTime();
          PlacementResult r = Strategies.named(s).place(p);
          double ms = (System.nanoTime() - start) / 1e6;
          System.out.printf("  %-18s %-9s %8.1f ms (one cold run)  cost %-8s stages %-4s GPUs %-4s %s%n", s, r.status(), ms,
              r.plan().map(x -> String.format("%.3f", x.cost())).orElse("-"), r.plan().map(x -> String.valueOf(x.stages().size())).orElse("-"),
              r.plan().map(x -> String.valueOf(x.gpuIds().size())).orElse("-"), s.equals("dp") ? r.statistics() : "");
        }
      }
     }
    }
  }
}
