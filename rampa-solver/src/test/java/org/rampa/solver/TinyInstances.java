package org.rampa.solver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.rampa.domain.BatchingWait;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.RandomInstances;

/**
 * Seeded tiny placement problems for the brute-force oracle: at most 7 layers, 6 GPUs on 3 nodes,
 * 2-3 GPU types (nodes may mix types), random network speed, random per-GPU or per-type costs,
 * some GPUs already held, every transfer mode, and SLOs drawn around what the fastest free GPUs can
 * do so that both feasible and infeasible cases are common.
 */
final class TinyInstances {

  static PlacementProblem problem(long seed, boolean allowSlowIntraLinks) {
    RandomInstances gen = new RandomInstances(seed);
    SplittableRandom r = gen.random();
    List<GpuType> types = RandomInstances.threeTypes().subList(0, 2 + r.nextInt(2));
    double networkBandwidth = 1e9 + r.nextDouble() * 11.5e9;
    var cluster = Cluster.builder().gpuTypes(types)
        .network(Link.of("net", networkBandwidth, Duration.ofNanos(5_000 + r.nextInt(20_000))));
    int nodes = 1 + r.nextInt(3);
    int budget = 6;
    for (int n = 0; n < nodes && budget > 0; n++) {
      Link intra = allowSlowIntraLinks && r.nextDouble() < 0.3
          ? Link.of("slow-pcie", networkBandwidth / 3, Duration.ofNanos(50_000))
          : r.nextBoolean() ? RandomInstances.nvlink() : Link.of("pcie", 24e9, Duration.ofNanos(4_000));
      cluster.addNodes(Node.of("n" + n, intra));
      int gpus = 1 + r.nextInt(Math.min(3, budget));
      budget -= gpus;
      boolean mixed = r.nextDouble() < 0.4;
      String nodeType = types.get(r.nextInt(types.size())).name();
      for (int g = 0; g < gpus; g++) {
        cluster.addGpus(Gpu.of("n" + n + "g" + g, mixed ? types.get(r.nextInt(types.size())).name() : nodeType, "n" + n));
      }
    }
    Cluster c = cluster.build();
    ClusterState state = gen.partiallyAllocated(c, r.nextDouble() * 0.3);

    int layers = 2 + r.nextInt(6);
    Model model = gen.model(layers, 2 + r.nextDouble() * 28, 0.2);
    int batch = 1 + r.nextInt(4);
    PerformanceModel performance = PerformanceModel.withTransfers(
        switch (r.nextInt(8)) {
          case 0, 1 -> TransferMode.SERIAL;
          case 2 -> TransferMode.NONE;
          default -> TransferMode.OVERLAPPED;
        });
    double fastest = 0;
    for (int l = 0; l < layers; l++) {
      double best = Double.POSITIVE_INFINITY;
      for (GpuType t : types) {
        best = Math.min(best, performance.layerSeconds(model.layer(l), t, batch));
      }
      fastest += best;
    }
    double throughput = batch / (fastest * (0.15 + r.nextDouble() * 1.1));
    var slo = Slo.builder()
        .requiredThroughput(throughput)
        .batchSize(batch)
        .batchingWait(r.nextDouble() < 0.2 ? BatchingWait.FILL_AT_REQUIRED_RATE : BatchingWait.NONE);
    double wait = slo.latencyBound(Duration.ofSeconds(1)).build().batchingWaitSeconds();
    slo.latencyBound(Duration.ofNanos((long) ((fastest * (0.95 + r.nextDouble() * 1.5) + wait) * 1e9)));
    ServiceRequest request = ServiceRequest.builder().id("svc-" + seed).model(model).slo(slo.build())
        .maxStages(r.nextDouble() < 0.15 ? 1 : 2 + r.nextInt(3)).build();
    return new PlacementProblem(request, state, RandomInstances.staticImportance(c, r), performance, StrategyOptions.builder()
        .timeLimit(Duration.ofSeconds(20)).seed(seed).transfers(performance.transferMode()).build());
  }


  static List<String> describe(PlacementProblem p) {
    List<String> lines = new ArrayList<>();
    lines.add("transfers " + p.performance().transferMode() + ", slo " + p.request().slo() + ", maxStages " + p.request().maxStages());
    for (Gpu g : p.state().cluster().gpus()) {
      lines.add(g.id() + " " + g.type() + (p.state().isFree(g.id()) ? " free" : " held"));
    }
    return lines;
  }

  private TinyInstances() {}
}
