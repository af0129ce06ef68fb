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
import org.openjdk.jmh.runner.RunnerException;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;

/**
 * Time to a proven answer of the exact planner with sharing on, on {@link SharedClusters}: the
 * benchmark's Llama-2-7B-like blocks and SLOs on 1000 catalog GPUs (250 nodes x 4) of which about
 * 40 % are free, 25 % held whole, 25 % shared by MPS incumbents and 10 % in MIG layouts. Each
 * invocation solves the next of 16 seeded instances. Run with {@link #main} (see BENCHMARKS.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 2, time = 10)
@Fork(1)
public class ExactSharedBenchmark {

  @Param({"1000"})
  public int gpus;

  @Param({"32", "80"})
  public int blocks;

  @Param({"moderate", "tight"})
  public String slo;

  private final List<PlacementProblem> problems = new ArrayList<>();
  private final ExactStrategy exact = ExactStrategy.scip();
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    for (long seed = 1; seed <= 16; seed++) {
      problems.add(SharedClusters.problem(gpus, blocks, seed, "tight".equals(slo)));
    }
  }

  @Benchmark
  public PlacementResult solve() {
    PlacementProblem problem = problems.get(next++ % problems.size());
    return ExactStrategyBenchmark.proven(exact.place(problem));
  }

  public static void main(String[] args) throws RunnerException {
    ExactStrategyBenchmark.run(ExactSharedBenchmark.class, args);
  }
}
