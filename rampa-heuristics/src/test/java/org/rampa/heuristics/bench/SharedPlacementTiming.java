package org.rampa.heuristics.bench;

import java.util.Arrays;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.share.MpsShare;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.Strategies;

/**
 * A timed example (not JMH): "greedy" on {@link SharedClusterInstance} with sharing off and on,
 * each decision repeated after a warm-up; prints the state, what greedy decides, and the median and
 * p95 per decision of the wall-clock time and of the deciding thread's CPU time (which a loaded
 * machine distorts less). Arguments: {@code seeds=1,2 repeats=200 warmup=50}. Run: see BENCHMARKS.md.
 */
public final class SharedPlacementTiming {
  private SharedPlacementTiming() {}

  public static void main(String[] args) {
    long[] seeds = {1, 2};
    int repeats = 200;
    int warmup = 50;
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "seeds" -> seeds = Arrays.stream(kv[1].split(",")).mapToLong(Long::parseLong).toArray();
        case "repeats" -> repeats = Integer.parseInt(kv[1]);
        case "warmup" -> warmup = Integer.parseInt(kv[1]);
        default -> throw new IllegalArgumentException("unknown argument " + arg + " (seeds=, repeats=, warmup=)");
      }
    }
    PlacementStrategy greedy = Strategies.named("greedy");
    System.out.println("workload seed sharing | free whole, MPS GPUs with room, MIG GPUs with free instances | plan | cost"
        + " | wall median ms | wall p95 ms | CPU median ms | CPU p95 ms");
    for (long seed : seeds) {
      ClusterState state = SharedClusterInstance.state(SharedClusterInstance.cluster(), seed);
      String shape = state.capacity().count() + " whole, " + state.capacity().freeMpsShares().size() + " MPS, "
          + state.capacity().freeMigInstances().size() + " MIG";
      for (String workload : new String[] {"decode", "prefill"}) {
        for (boolean sharing : new boolean[] {false, true}) {
          PlacementProblem problem = SharedClusterInstance.problem(state, workload, sharing);
          PlacementResult result = null;
          for (int i = 0; i < warmup; i++) {
            result = greedy.place(problem);
          }
          long[] nanos = new long[repeats];
          long[] cpu = new long[repeats];
          for (int i = 0; i < repeats; i++) {
            long c0 = cpuNanos();
            long t0 = System.nanoTime();
            result = greedy.place(problem);
            nanos[i] = System.nanoTime() - t0;
            cpu[i] = cpuNanos() - c0;
          }
          Arrays.sort(nanos);
          Arrays.sort(cpu);
          int p95 = (int) Math.ceil(0.95 * repeats) - 1;
          System.out.printf("%s %d %s | %s | %s | %s | %.3f | %.3f | %.3f | %.3f%n", workload, seed, sharing ? "on" : "off", shape,
              result.plan().map(SharedPlacementTiming::describe).orElse(result.status().toString()),
              result.plan().map(p -> String.format("%.4g", p.cost())).orElse("-"),
              nanos[repeats / 2] / 1e6, nanos[p95] / 1e6, cpu[repeats / 2] / 1e6, cpu[p95] / 1e6);
        }
      }
    }
  }

  /**
   * The calling thread's CPU time, through java.management by reflection: the test sources are a
   * module that does not read it, and this example runs on the class path, where everything is read.
   */
  static long cpuNanos() {
    try {
      Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
      return (long) Class.forName("java.lang.management.ThreadMXBean").getMethod("getCurrentThreadCpuTime").invoke(bean);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("thread CPU time is not available", e);
    }
  }

  private static String describe(Plan p) {
    StringBuilder b = new StringBuilder();
    p.stages().forEach(s -> b.append(b.length() > 0 ? " + " : "").append(s.gpus().size()).append("x ")
        .append(s.placement() instanceof MpsShare m ? "mps " + String.format("%.3g", m.fraction()) : s.placement().label())
        .append(" [").append(s.from()).append(',').append(s.to()).append(')'));
    return b.toString();
  }
}
