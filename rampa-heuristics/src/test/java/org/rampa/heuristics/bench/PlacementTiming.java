package org.rampa.heuristics.bench;

import java.time.Duration;
import java.util.Arrays;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.Strategies;

/**
 * A timed example (not JMH) on {@link PlacementBenchmark}'s twelve instances ({@link LargeClusterInstance}:
 * seeds 1 and 2, 2, 5 and 20 requests/s, per-type and per-GPU importance): one strategy, each instance
 * decided {@code warmup} times and then {@code repeats} times in turns (so that a burst of load from
 * other processes falls on every instance alike); prints what it decides and the median and p95 per
 * decision of the deciding thread's CPU time (which a loaded machine distorts less than the wall
 * clock) and of the wall clock. Arguments: {@code strategy=dp repeats=100 warmup=100}. Run: see BENCHMARKS.md.
 */
public final class PlacementTiming {
  private PlacementTiming() {}

  public static void main(String[] args) {
    String strategy = "dp";
    int repeats = 100;
    int warmup = 100;
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "strategy" -> strategy = kv[1];
        case "repeats" -> repeats = Integer.parseInt(kv[1]);
        case "warmup" -> warmup = Integer.parseInt(kv[1]);
        default -> throw new IllegalArgumentException("unknown argument " + arg + " (strategy=, repeats=, warmup=)");
      }
    }
    PlacementStrategy placement = Strategies.named(strategy);
    PlacementProblem[] problems = new PlacementProblem[12];
    String[] names = new String[12];
    int n = 0;
    for (long seed : new long[] {1, 2}) {
      for (double throughput : new double[] {2, 5, 20}) {
        for (String weights : new String[] {"per-type", "per-gpu"}) {
          problems[n] = LargeClusterInstance.problem(seed, throughput, Duration.ofSeconds(1), weights.equals("per-gpu"));
          names[n++] = seed + " | " + (int) throughput + " | " + weights;
        }
      }
    }
    PlacementResult[] results = new PlacementResult[n];
    for (int i = 0; i < warmup; i++) {
      for (int k = 0; k < n; k++) {
        results[k] = placement.place(problems[k]);
      }
    }
    long[][] cpu = new long[n][repeats];
    long[][] wall = new long[n][repeats];
    for (int i = 0; i < repeats; i++) {
      for (int k = 0; k < n; k++) {
        long c0 = SharedPlacementTiming.cpuNanos();
        long t0 = System.nanoTime();
        results[k] = placement.place(problems[k]);
        wall[k][i] = System.nanoTime() - t0;
        cpu[k][i] = SharedPlacementTiming.cpuNanos() - c0;
      }
    }
    System.out.println("seed | req/s | importance | status | cost | CPU median ms | CPU p95 ms | wall median ms | wall p95 ms");
    int p95 = (int) Math.ceil(0.95 * repeats) - 1;
    for (int k = 0; k < n; k++) {
      Arrays.sort(cpu[k]);
      Arrays.sort(wall[k]);
      System.out.printf("%s | %s | %s | %.3f | %.3f | %.3f | %.3f%n", names[k], results[k].status(),
          results[k].plan().map(p -> String.format("%.6g", p.cost())).orElse("-"), cpu[k][repeats / 2] / 1e6, cpu[k][p95] / 1e6,
          wall[k][repeats / 2] / 1e6, wall[k][p95] / 1e6);
    }
  }
}
