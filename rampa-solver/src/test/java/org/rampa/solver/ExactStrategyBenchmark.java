package org.rampa.solver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;

/**
 * Time to a proven answer (OPTIMAL, or INFEASIBLE with proof) of the exact planner on
 * {@link TransformerClusters} workloads: 32 and 80 Llama-2-7B-like blocks, clusters of 64 and 1000
 * GPUs (4 types, 4 GPUs per node, half held at random), a moderate and a tight SLO. Each
 * invocation solves the next of 16 seeded instances (different clusters and holdings), so the
 * sampled percentiles span instances, not one lucky case. Run with {@link #main} (see
 * BENCHMARKS.md for the command).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 2, time = 10)
@Fork(1)
public class ExactStrategyBenchmark {

  @Param({"64", "1000"})
  public int gpus;

  @Param({"32", "80"})
  public int blocks;

  @Param({"moderate", "tight"})
  public String slo;

  @Param({"exact"})
  public String strategy;

  private final List<PlacementProblem> problems = new ArrayList<>();
  private ExactStrategy exact;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    for (long seed = 1; seed <= 16; seed++) {
      problems.add(TransformerClusters.problem(gpus, blocks, seed, "tight".equals(slo)));
    }
    exact = "exact-cpsat".equals(strategy) ? ExactStrategy.cpSat() : ExactStrategy.scip();
  }

  @Benchmark
  public PlacementResult solve() {
    PlacementProblem problem = problems.get(next++ % problems.size());
    return proven(exact.place(problem));
  }

  /** The result, if the solver proved it (OPTIMAL or INFEASIBLE); a benchmark of unproven answers would time something else. */
  static PlacementResult proven(PlacementResult result) {
    if (result.status() != SolveStatus.OPTIMAL && result.status() != SolveStatus.INFEASIBLE) {
      throw new IllegalStateException("not proven within the time limit: " + result);
    }
    return result;
  }

  public static void main(String[] args) throws RunnerException {
    run(ExactStrategyBenchmark.class, args);
  }

  /** Runs {@code benchmark} with {@code param=v1,v2} overrides of its JMH parameters. */
  static void run(Class<?> benchmark, String[] args) throws RunnerException {
    var options = new OptionsBuilder().include(benchmark.getSimpleName());
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      options.param(kv[0], kv[1].split(","));
    }
    new Runner(options.build()).run();
  }
}
