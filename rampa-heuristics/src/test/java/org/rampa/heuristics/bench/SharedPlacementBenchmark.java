package org.rampa.heuristics.bench;

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
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.Strategies;

/**
 * Per-decision time of "greedy" (verified, as callers get it) on {@link SharedClusterInstance}: 1000
 * catalog GPUs on 250 nodes, half of them partly used by MPS and MIG incumbents, with sharing off
 * and on. Run: see rampa-heuristics/BENCHMARKS.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class SharedPlacementBenchmark {

  /** "decode" (Llama-2-7B decode step, 50 req/s within 250 ms) or "prefill" (512-token prompt, 4 req/s within 2 s). */
  @Param({"decode", "prefill"})
  public String workload;

  @Param({"off", "on"})
  public String sharing;

  @Param({"1", "2"})
  public long seed;

  private PlacementStrategy greedy;
  private PlacementProblem problem;

  @Setup(Level.Trial)
  public void setUp() {
    greedy = Strategies.named("greedy");
    problem = SharedClusterInstance.problem(SharedClusterInstance.state(SharedClusterInstance.cluster(), seed), workload, sharing.equals("on"));
  }

  @Benchmark
  public PlacementResult decide() {
    return greedy.place(problem);
  }

  public static void main(String[] args) throws RunnerException {
    var options = new OptionsBuilder().include(SharedPlacementBenchmark.class.getSimpleName());
    if (args.length > 0) {
      options.param("sharing", args);
    }
    new Runner(options.build()).run();
  }
}
