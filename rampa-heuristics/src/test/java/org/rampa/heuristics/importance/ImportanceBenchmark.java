package org.rampa.heuristics.importance;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.testing.ReferenceWorkloads;

/**
 * Per-decision cost of every importance model on a 1000-GPU fleet (250 nodes × 4 GPUs of T4, A10,
 * A100-80GB, H100-SXM), about half of it held (or another fraction), with a six-class forecast. Not JMH (the module pom
 * has no JMH dependency): a plain timing harness with warm-up and repeated measurement.
 *
 * <p>One decision = {@code evaluate(state)} plus reading the cost of all 1000 GPUs. The states
 * form a chain like an online simulation: each differs from the previous by one GPU taken or
 * released, so caches see realistic reuse. Run (see IMPORTANCE.md):
 *
 * <pre>java -cp ... org.rampa.heuristics.importance.ImportanceBenchmark [decisions [heldFraction]]</pre>
 */
public final class ImportanceBenchmark {

  private ImportanceBenchmark() {}

  public static void main(String[] args) {
    int decisions = args.length > 0 ? Integer.parseInt(args[0]) : 400;
    double heldFraction = args.length > 1 ? Double.parseDouble(args[1]) : 0.5;
    Cluster cluster = ReferenceWorkloads.fleet(250, 4);
    List<ClusterState> states = stateChain(cluster, decisions, heldFraction, 20261130L);
    WorkloadForecast forecast = forecast();
    PerformanceModel perf = PerformanceModel.defaults();
    Placeability oracle = Placeability.singleType(perf);

    printRequirements(cluster, forecast, perf);

    printCostProfile(cluster, states.get(states.size() - 1), List.of(
        StaticImportance.byType(Map.of("T4", 1.0, "A10", 1.5, "A100-80GB", 4.0, "H100-SXM", 8.0)),
        ImportanceModels.capability(),
        ImportanceModels.fragmentation(),
        ImportanceModels.scarcity(() -> forecast, perf),
        ImportanceModels.marginalAcceptanceLoss(() -> forecast, oracle, 256, 1)));

    // Two rounds over every model: the first lets the JIT settle for all of them, the second is the one to quote.
    for (int round = 1; round <= 2; round++) {
      System.out.printf("%nround %d: %d decisions per model after %d warm-up decisions; thread CPU time per decision, microseconds%n",
          round, decisions, decisions);
      System.out.printf("%-44s %10s %10s %10s %10s%n", "model", "median", "p95", "mean", "max");
      report("static (by type)", time(
          StaticImportance.byType(Map.of("T4", 1.0, "A10", 1.5, "A100-80GB", 4.0, "H100-SXM", 8.0)), states, cluster));
      report("capability", time(ImportanceModels.capability(), states, cluster));
      report("fragmentation", time(ImportanceModels.fragmentation(), states, cluster));
      report("scarcity", time(ImportanceModels.scarcity(() -> forecast, perf), states, cluster));

      MarginalAcceptanceLoss loss = (MarginalAcceptanceLoss) ImportanceModels.marginalAcceptanceLoss(() -> forecast, oracle, 256, 1);
      report("marginal-loss (256 draws)", time(loss, states, cluster));
      long computed = 2L * states.size() - loss.cacheHits.get();
      System.out.printf("    cache hits %d of %d decisions; per computed decision %.1f GPU classes, %.1f oracle calls%n",
          loss.cacheHits.get(), 2L * states.size(),
          loss.equivalenceClasses.get() / (double) computed, loss.oracleCalls.get() / (double) computed);

      // Without the cross-decision cache: a fresh model per decision (layouts stay memoised in the oracle).
      long[] cold = new long[states.size()];
      for (int i = 0; i < states.size(); i++) {
        ImportanceModel fresh = ImportanceModels.marginalAcceptanceLoss(() -> forecast, oracle, 256, 1);
        long t0 = THREAD.getCurrentThreadCpuTime();
        consume(fresh.evaluate(states.get(i)), cluster);
        cold[i] = THREAD.getCurrentThreadCpuTime() - t0;
      }
      report("marginal-loss, no cross-decision cache", cold);

      report("combination of the four dynamic models", time(ImportanceModels.combination()
          .add(1, ImportanceModels.scarcity(() -> forecast, perf))
          .add(1, ImportanceModels.marginalAcceptanceLoss(() -> forecast, oracle, 256, 1))
          .add(0.5, ImportanceModels.fragmentation())
          .add(0.25, ImportanceModels.capability())
          .build(), states, cluster));
    }
    System.out.println("\nchecksum " + sink);
  }

  private static double sink;

  /**
   * Times are CPU time of the measuring thread, not wall time: the build machines are shared and
   * often overloaded, and CPU time is far less disturbed by other processes (GC threads excluded).
   */
  private static final ThreadMXBean THREAD = ManagementFactory.getThreadMXBean();

  private static long[] time(ImportanceModel model, List<ClusterState> states, Cluster cluster) {
    for (int i = 0; i < states.size(); i++) {
      consume(model.evaluate(states.get(i)), cluster); // warm-up: JIT, memo tables
    }
    long[] nanos = new long[states.size()];
    for (int i = 0; i < states.size(); i++) {
      long t0 = THREAD.getCurrentThreadCpuTime();
      consume(model.evaluate(states.get(i)), cluster);
      nanos[i] = THREAD.getCurrentThreadCpuTime() - t0;
    }
    return nanos;
  }

  private static void consume(GpuCosts costs, Cluster cluster) {
    double s = 0;
    for (Gpu g : cluster.gpus()) {
      s += costs.of(g.id());
    }
    sink += s;
  }

  private static void report(String name, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    double mean = Arrays.stream(sorted).average().orElse(0);
    System.out.printf("%-44s %10.1f %10.1f %10.1f %10.1f%n", name,
        sorted[sorted.length / 2] / 1e3, sorted[(int) Math.ceil(0.95 * sorted.length) - 1] / 1e3, mean / 1e3,
        sorted[sorted.length - 1] / 1e3);
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
        state = state.allocate(holding("bg" + n++, g.id()));
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
        state = state.allocate(holding(id, free.get(random.nextInt(free.size())).id()));
        held.add(id);
      }
      chain.add(state);
    }
    return chain;
  }

  private static Plan holding(String service, String gpu) {
    return Plan.builder()
        .serviceId(service)
        .addStages(Stage.builder().from(0).to(1).addGpus(gpu).computeTime(Duration.ZERO).memoryBytes(0).build())
        .period(Duration.ZERO).throughput(0).latency(Duration.ZERO)
        .build();
  }

  /** Mean and max cost of the free GPUs of each type in one state: what the models say, not how fast. */
  private static void printCostProfile(Cluster cluster, ClusterState state, List<ImportanceModel> models) {
    System.out.printf("%ncost of free GPUs in the last state (mean / max per type; %d GPUs free)%n%-16s", state.freeGpus().size(), "model");
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
