package org.rampa.testing;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.StrategyOptions;

/**
 * Seeded tiny placement problems for brute-force cross-checks ({@link BruteForcePlacement}): at most
 * {@code maxLayers} layers and 3 nodes with a few GPUs, random GPU costs, a random transfer mode, and
 * an SLO scaled to the model's time on the middle GPU type so that some instances are feasible, some
 * need several stages or replicas, and some are infeasible.
 */
public final class TinyPlacementProblems {
  private TinyPlacementProblems() {}

  public static PlacementProblem generate(long seed, int maxLayers, int maxGpus) {
    RandomInstances gen = new RandomInstances(seed);
    SplittableRandom r = gen.random();
    Cluster cluster = gen.cluster(1 + r.nextInt(3), 2 + r.nextInt(2), 1 + r.nextInt(3));
    while (cluster.gpus().size() > maxGpus) {
      cluster = gen.cluster(1 + r.nextInt(3), 2 + r.nextInt(2), 1 + r.nextInt(3));
    }
    int layers = 2 + r.nextInt(maxLayers - 1);
    Model model = gen.model(layers, 8 + r.nextInt(40), 0.3);
    GpuType mid = RandomInstances.threeTypes().get(1);
    int batch = 1 + r.nextInt(4);
    PerformanceModel reference = PerformanceModel.defaults();
    double t = reference.stageSeconds(model, 0, layers, mid, batch);
    double throughput = batch / (t * (0.25 + 2.5 * r.nextDouble()));
    Duration latency = Duration.ofNanos((long) (t * (0.6 + 3 * r.nextDouble()) * 1e9) + 1);
    ServiceRequest request = gen.request("svc-" + seed, model, throughput, latency, batch, 1 + r.nextInt(4));
    ClusterState state = r.nextInt(3) == 0 ? gen.partiallyAllocated(cluster, 0.25) : ClusterState.empty(cluster);
    Map<String, Double> typeWeights = new HashMap<>();
    for (GpuType type : cluster.gpuTypes()) {
      typeWeights.put(type.name(), 0.5 + r.nextInt(8));
    }
    Map<String, Double> gpuWeights = new HashMap<>();
    for (Gpu g : cluster.gpus()) {
      if (r.nextInt(3) == 0) {
        gpuWeights.put(g.id(), 0.5 + r.nextInt(8));
      }
    }
    StaticImportance importance = StaticImportance.byType(typeWeights).withGpuWeights(gpuWeights);
    TransferMode mode = List.of(TransferMode.values()).get(r.nextInt(TransferMode.values().length));
    return new PlacementProblem(request, state, importance, PerformanceModel.withTransfers(mode),
        StrategyOptions.builder().seed(seed).transfers(mode).build());
  }
}
