package org.rampa.heuristics.bench;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
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
 * Per-decision time of "greedy" and "dp" on {@link LargeClusterInstance}: an 80-block
 * Llama-2-7B-like model (512-token requests) on 1000 GPUs / 250 nodes, half of them held.
 * Run: see rampa-heuristics/BENCHMARKS.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class PlacementBenchmark {

  @Param({"greedy", "dp"})
  public String strategy;

  /** Required throughput in requests/s (latency bound 1 s). */
  @Param({"2", "5", "20"})
  public double throughput;

  @Param({"1", "2"})
  public long seed;

  /** "per-type": T4 1, A10 2, A100 4, H100 8; "per-gpu": each GPU's type weight times a random factor in [0.5, 1.5). */
  @Param({"per-type", "per-gpu"})
  public String weights;

  /**
   * "repeat": every invocation places the same problem, so whatever a strategy keeps across
   * decisions (a pooled slot menu, relaxation tables, layer times) applies as it would to a problem
   * asked again. "alternate": invocations alternate between the problem and the same problem on a
   * state with one more GPU held, so nothing tied to the last decision's free GPUs is reused, as for
   * a scheduler's next arrival after an admission (the model and the GPU types stay the same).
   */
  @Param({"repeat"})
  public String states;

  private PlacementStrategy placement;
  private PlacementProblem problem;
  private PlacementProblem other;
  private boolean flip;

  @Setup(Level.Trial)
  public void setUp() {
    placement = Strategies.named(strategy);
    problem = LargeClusterInstance.problem(seed, throughput, Duration.ofSeconds(1), weights.equals("per-gpu"));
    other = switch (states) {
      case "repeat" -> problem;
      case "alternate" -> new PlacementProblem(problem.request(), LargeClusterInstance.holdOneMore(problem.state()),
          problem.importance(), problem.performance(), problem.options(), problem.ticker());
      default -> throw new IllegalArgumentException("states: \"" + states + "\" is not repeat or alternate");
    };
  }

  @Benchmark
  public PlacementResult decide() {
    flip = !flip;
    return placement.place(flip ? problem : other);
  }

  public static void main(String[] args) throws RunnerException {
    // anchored: the simple name alone also selects SharedPlacementBenchmark (JMH finds the pattern anywhere in a name)
    var options = new OptionsBuilder().include("^" + Pattern.quote(PlacementBenchmark.class.getName() + "."));
    if (args.length > 0) {
      options.param("strategy", args);
    }
    new Runner(options.build()).run();
  }
}
