package org.rampa.heuristics.importance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.ReferenceWorkloads;

/**
 * Per-decision cost of the importance models on a 1000-GPU fleet (250 nodes × 4 GPUs of T4, A10,
 * A100-80GB, H100-SXM), a fraction of it held, with a six-class forecast. Run: see IMPORTANCE.md.
 *
 * <p>One decision = {@code evaluate(state)} plus reading the cost of all 1000 GPUs. Successive
 * invocations walk a chain of {@value #CHAIN_LENGTH} states, each one GPU taken or released from
 * the previous one, like an online simulation: the chain is much longer than the marginal-loss
 * cache (32 entries), so wrapping around does not turn every decision into a cache hit.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// 12 s of warm-up: on the half-held fleet the marginal-loss models ran 7-9 ms per decision for the
// first 6-13 s of a fork and 1.2-2 ms afterwards (measured; 2 x 2 s left them in the slow phase).
@Warmup(iterations = 4, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class ImportanceBenchmark {

  static final int CHAIN_LENGTH = 400;
  private static final long CHAIN_SEED = 20261130L;

  /** "marginal-loss" uses 256 draws and the default single-type oracle; "combination" = 1 scarcity + 1 loss + 0.5 fragmentation + 0.25 capability. */
  @Param({"static", "capability", "fragmentation", "scarcity", "marginal-loss", "combination"})
  public String model;

  /** Expected fraction of GPUs held before the chain starts. */
  @Param({"0.5", "0.95"})
  public double heldFraction;

  private ImportanceModel importance;
  /** The marginal-loss instance inside {@link #importance}, if any, for its counters. */
  private MarginalAcceptanceLoss loss;
  private List<ClusterState> states;
  private String[] gpuIds;
  private int next;
  private long decisions;
  private long primingHits;

  @Setup(Level.Trial)
  public void setUp() {
    Cluster cluster = ReferenceWorkloads.fleet(250, 4);
    states = stateChain(cluster, CHAIN_LENGTH, heldFraction, CHAIN_SEED);
    gpuIds = cluster.gpus().stream().map(Gpu::id).toArray(String[]::new);
    WorkloadForecast forecast = forecast();
    PerformanceModel perf = PerformanceModel.defaults();
    switch (model) {
      case "static" -> importance = staticByType();
      case "capability" -> importance = ImportanceModels.capability();
      case "fragmentation" -> importance = ImportanceModels.fragmentation();
      case "scarcity" -> importance = ImportanceModels.scarcity(() -> forecast, perf);
      case "marginal-loss" -> importance = loss = marginalLoss(forecast, perf);
      case "combination" -> {
        loss = marginalLoss(forecast, perf);
        importance = ImportanceModels.combination()
            .add(1, ImportanceModels.scarcity(() -> forecast, perf))
            .add(1, loss)
            .add(0.5, ImportanceModels.fragmentation())
            .add(0.25, ImportanceModels.capability())
            .build();
      }
      default -> throw new IllegalArgumentException("model '" + model
          + "' is not one of static, capability, fragmentation, scarcity, marginal-loss, combination");
    }
    // One pass over the chain before any timing, as a long-running scheduler would have made:
    // single-type layouts are memoised for every state the timed passes see. The 32-entry
    // cross-decision cache then holds only the chain's last states, and timing starts at the first.
    for (ClusterState state : states) {
      importance.evaluate(state);
    }
    if (loss != null) {
      primingHits = loss.cacheHits.get();
    }
  }

  @Benchmark
  public double decide() {
    ClusterState state = states.get(next);
    next = (next + 1) % states.size();
    decisions++;
    GpuCosts costs = importance.evaluate(state);
    double sum = 0;
    for (String id : gpuIds) {
      sum += costs.of(id);
    }
    return sum;
  }

  /** How much work the marginal-loss model did: cache hits in warm-up and measurement; classes and oracle calls over all passes. */
  @TearDown(Level.Trial)
  public void reportMarginalLossWork() {
    if (loss == null) {
      return;
    }
    long hits = loss.cacheHits.get() - primingHits;
    long computed = states.size() + decisions - loss.cacheHits.get();
    System.out.printf("%nmarginal-loss: cache hits %d of %d timed decisions; per computed decision %.1f GPU classes, %.1f oracle calls%n",
        hits, decisions, loss.equivalenceClasses.get() / (double) computed, loss.oracleCalls.get() / (double) computed);
  }

  /**
   * Prints what the models say (fewest GPUs per class and type; cost of free GPUs on the last state
   * of the half-held chain), then runs the benchmark. Arguments override parameters: {@code
   * model=scarcity,static} or {@code heldFraction=0.95}; a bare argument is a model name.
   */
  public static void main(String[] args) throws RunnerException {
    Cluster cluster = ReferenceWorkloads.fleet(250, 4);
    WorkloadForecast forecast = forecast();
    PerformanceModel perf = PerformanceModel.defaults();
    printRequirements(cluster, forecast, perf);
    ClusterState last = stateChain(cluster, CHAIN_LENGTH, 0.5, CHAIN_SEED).get(CHAIN_LENGTH - 1);
    printCostProfile(cluster, last, List.of(
        staticByType(),
        ImportanceModels.capability(),
        ImportanceModels.fragmentation(),
        ImportanceModels.scarcity(() -> forecast, perf),
        marginalLoss(forecast, perf)));

    ChainedOptionsBuilder options = new OptionsBuilder().include(ImportanceBenchmark.class.getSimpleName());
    List<String> models = new ArrayList<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq < 0) {
        models.add(arg);
      } else {
        options.param(arg.substring(0, eq), arg.substring(eq + 1).split(","));
      }
    }
    if (!models.isEmpty()) {
      options.param("model", models.toArray(String[]::new));
    }
    new Runner(options.build()).run();
  }

  private static ImportanceModel staticByType() {
    return StaticImportance.byType(Map.of("T4", 1.0, "A10", 1.5, "A100-80GB", 4.0, "H100-SXM", 8.0));
  }

  private static MarginalAcceptanceLoss marginalLoss(WorkloadForecast forecast, PerformanceModel perf) {
    return (MarginalAcceptanceLoss) ImportanceModels.marginalAcceptanceLoss(
        () -> forecast, Placeability.singleType(perf), 256, 1);
  }

  static WorkloadForecast forecast() {
    var b = WorkloadForecast.builder();
    List<ServiceRequest> classes = ReferenceWorkloads.sixClasses();
    double[] weights = ReferenceWorkloads.sixClassWeights();
    for (int i = 0; i < classes.size(); i++) {
      b.add(classes.get(i), weights[i]);
    }
    return b.build();
  }

  /** A random {@code heldFraction} of the GPUs held, then {@code length} states each one GPU taken or released from the last. */
  static List<ClusterState> stateChain(Cluster cluster, int length, double heldFraction, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    ClusterState state = ClusterState.empty(cluster);
    List<String> held = new ArrayList<>();
    int n = 0;
    for (Gpu g : cluster.gpus()) {
      if (random.nextDouble() < heldFraction) {
        state = state.allocate(RandomInstances.holdPlan("bg" + n++, g.id()));
        held.add("bg" + (n - 1));
      }
    }
    List<ClusterState> chain = new ArrayList<>();
    for (int i = 0; i < length; i++) {
      if (random.nextBoolean() && !held.isEmpty()) {
        state = state.release(held.remove(random.nextInt(held.size())));
      } else {
        List<Gpu> free = state.freeGpus();
        String id = "bg" + n++;
        state = state.allocate(RandomInstances.holdPlan(id, free.get(random.nextInt(free.size())).id()));
        held.add(id);
      }
      chain.add(state);
    }
    return chain;
  }


  /** Mean and max cost of the free GPUs of each type in one state: what the models say, not how fast. */
  private static void printCostProfile(Cluster cluster, ClusterState state, List<ImportanceModel> models) {
    System.out.printf("%ncost of free GPUs in the last state of the half-held chain (mean / max per type; %d GPUs free)%n%-16s",
        state.freeGpus().size(), "model");
    for (GpuType t : cluster.gpuTypes()) {
      System.out.printf(" %20s", t.name());
    }
    System.out.println();
    for (ImportanceModel m : models) {
      GpuCosts costs = m.evaluate(state);
      System.out.printf("%-16s", m.name());
      for (GpuType t : cluster.gpuTypes()) {
        double sum = 0;
        double max = 0;
        int n = 0;
        for (Gpu g : state.freeGpus()) {
          if (g.type().equals(t.name())) {
            double c = costs.of(g.id());
            sum += c;
            max = Math.max(max, c);
            n++;
          }
        }
        System.out.printf(" %9.4f / %8.4f", n == 0 ? 0 : sum / n, max);
      }
      System.out.println();
    }
  }

  /** The fewest GPUs of each type each class needs alone (what scarcity attributes demand by). */
  private static void printRequirements(Cluster cluster, WorkloadForecast forecast, PerformanceModel perf) {
    SingleTypeLayouts layouts = new SingleTypeLayouts(perf);
    FreeCapacity whole = TypeRequirements.whole(cluster);
    System.out.printf("fewest GPUs per service class and type (- = cannot serve)%n%-22s", "class");
    for (GpuType t : cluster.gpuTypes()) {
      System.out.printf(" %10s", t.name());
    }
    System.out.println();
    for (ServiceClass c : forecast.classes()) {
      Map<String, Integer> need = TypeRequirements.of(c.template(), cluster, whole, layouts);
      System.out.printf("%-22s", c.template().id());
      for (GpuType t : cluster.gpuTypes()) {
        System.out.printf(" %10s", need.containsKey(t.name()) ? need.get(t.name()) : "-");
      }
      System.out.println();
    }
  }
}
