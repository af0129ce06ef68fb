package org.rampa.solver;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.StrategyOptions;

/**
 * Measures how far a call of the exact planner runs past its time limit, wall clock, from the first
 * call in a fresh JVM on: {@code calls} calls on 1000-GPU, 80-block instances with the tight SLO
 * ({@link TransformerClusters}, seeds 1, 2, ...), each with the time limit {@code limitMs}. With
 * {@code model=full} the co-location model alone runs, which no such instance finishes within
 * seconds, so every call ends at the limit. Wall time is measured here, never asserted in a test
 * (shared, noisy machines); strategy creation (loading OR-Tools' natives) is outside the calls.
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) \
 *     org.rampa.solver.ExactTimeLimitProbe exact full 100 20
 * </pre>
 *
 * Arguments: strategy ({@code exact} or {@code exact-cpsat}), model ({@code auto} or {@code full}),
 * limitMs, calls.
 */
public final class ExactTimeLimitProbe {

  public static void main(String[] args) {
    String name = args[0];
    String model = args[1];
    Duration limit = Duration.ofMillis(Long.parseLong(args[2]));
    int calls = Integer.parseInt(args[3]);
    ExactStrategy strategy = ExactStrategy.CPSAT_NAME.equals(name) ? ExactStrategy.cpSat() : ExactStrategy.scip();
    double[] ratios = new double[calls];
    for (int i = 0; i < calls; i++) {
      PlacementProblem p = TransformerClusters.problem(1000, 80, i + 1, true);
      PlacementProblem limited = new PlacementProblem(p.request(), p.state(), p.importance(), p.performance(),
          StrategyOptions.builder().from(p.options()).timeLimit(limit).extra(Map.of("model", model)).build());
      long start = System.nanoTime();
      PlacementResult r = strategy.place(limited);
      double wallMs = (System.nanoTime() - start) / 1e6;
      ratios[i] = wallMs / limit.toMillis();
      System.out.printf("call %2d: %8.1f ms wall (%.2fx the limit), reported %6.1f ms, %s%n", i + 1, wallMs, ratios[i],
          r.solveTime().toNanos() / 1e6, r.status());
      if (ratios[i] > 1.5) {
        System.out.println("  where the time went (ms since the call began, solver's own ms): " + r.statistics());
      }
    }
    double[] warm = Arrays.copyOfRange(ratios, 1, calls);
    Arrays.sort(warm);
    System.out.printf("%s model=%s limit=%d ms: first call %.2fx; warm calls median %.2fx, max %.2fx%n", name, model,
        limit.toMillis(), ratios[0], warm.length > 0 ? warm[warm.length / 2] : Double.NaN,
        warm.length > 0 ? warm[warm.length - 1] : Double.NaN);
  }

  private ExactTimeLimitProbe() {}
}
