package org.rampa.heuristics.bench;

import java.time.Duration;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.Strategies;

public class LargeClusterProbe {
  public static void main(String[] a) {
    for (double lambda : new double[] {2, 5, 20, 2, 5}) {
      PlacementProblem p = LargeClusterInstance.problem(1, lambda, Duration.ofSeconds(1));
      for (String s : a.length > 0 ? a : new String[] {"greedy", "dp", "performance-first", "first-fit"}) {
        PlacementResult r = null;
        long t0 = System.nanoTime();
        int reps = s.equals("dp") ? 3 : 100;
        for (int i = 0; i < reps; i++) {
          r = Strategies.named(s).place(p);
        }
        long t = (System.nanoTime() - t0) / reps;
        System.out.printf("lambda %.0f %s %.2f ms %s cost %s stages %s gpus %s %s %s%n", lambda, s, t / 1e6, r.status(),
            r.plan().map(x -> x.cost()).orElse(null), r.plan().map(x -> x.stages().size()).orElse(null),
            r.plan().map(x -> x.gpuIds().size()).orElse(null), r.statistics(), r.reason());
      }
    }
  }
}
