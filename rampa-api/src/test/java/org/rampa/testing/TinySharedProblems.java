package org.rampa.testing;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.GpuCatalog;
import org.rampa.domain.AllocationRefusedException;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.verify.InterferenceGuard;

/**
 * Seeded tiny placement problems on shared GPUs for brute-force cross-checks
 * ({@link BruteForcePlacement#solve(PlacementProblem, SharingOptions)}): one A100-SXM4-80GB node
 * (MPS and MIG) and sometimes one L4 node (MPS only), at most 4 GPUs in all, each GPU free, held
 * whole, shared by MPS incumbents (Llama-2-7B decode steps whose latency bounds leave them room
 * for 0 to several co-runners) or in a MIG layout with one instance held; a random model of at most
 * {@code maxLayers} layers whose SLO is scaled to its time on a whole A100, so that some instances
 * need shares, some fit whole GPUs and some are infeasible. The problem's options switch sharing on.
 */
public final class TinySharedProblems {
  private TinySharedProblems() {}

  private static final String A100 = "A100-SXM4-80GB";
  private static final String L4 = "L4";

  public static PlacementProblem generate(long seed, int maxLayers) {
    RandomInstances gen = new RandomInstances(seed);
    SplittableRandom r = gen.random();
    GpuCatalog catalog = GpuCatalog.standard();
    int a100s = 1 + r.nextInt(3);
    int l4s = r.nextInt(3) == 0 ? 0 : Math.min(4 - a100s, 1 + r.nextInt(2));
    var b = Cluster.builder().network(ClusterPresets.NETWORK_100G).addGpuTypes(catalog.type(A100));
    b.addNodes(Node.of("a", catalog.entry(A100).intraNodeLink()));
    for (int i = 0; i < a100s; i++) {
      b.addGpus(Gpu.of("a" + i, A100, "a"));
    }
    if (l4s > 0) {
      b.addGpuTypes(catalog.type(L4)).addNodes(Node.of("l", catalog.entry(L4).intraNodeLink()));
      for (int i = 0; i < l4s; i++) {
        b.addGpus(Gpu.of("l" + i, L4, "l"));
      }
    }
    Cluster cluster = b.build();
    ClusterState state = incumbents(cluster, r);

    int layers = 2 + r.nextInt(maxLayers - 1);
    Model model = gen.model(layers, 2 + r.nextInt(14), 0.3);
    int batch = 1 + r.nextInt(2);
    double t = PerformanceModel.defaults().stageSeconds(model, 0, layers, catalog.type(A100), batch);
    double throughput = batch / (t * (0.4 + 3.0 * r.nextDouble()));
    Duration latency = Duration.ofNanos((long) (t * (1.0 + 4 * r.nextDouble()) * 1e9) + 1);
    ServiceRequest request = gen.request("svc-" + seed, model, throughput, latency, batch, 1 + r.nextInt(3));
    Map<String, Double> typeWeights = new HashMap<>();
    for (GpuType type : cluster.gpuTypes()) {
      typeWeights.put(type.name(), 0.5 + r.nextInt(6));
    }
    Map<String, Double> gpuWeights = new HashMap<>();
    for (Gpu g : cluster.gpus()) {
      if (r.nextInt(3) == 0) {
        gpuWeights.put(g.id(), 0.5 + r.nextInt(6));
      }
    }
    TransferMode mode = List.of(TransferMode.values()).get(r.nextInt(TransferMode.values().length));
    StrategyOptions options = SharingOptions.on().applyTo(StrategyOptions.builder().seed(seed).transfers(mode)
        .timeLimit(Duration.ofSeconds(20)).build());
    return new PlacementProblem(request, state, StaticImportance.byType(typeWeights).withGpuWeights(gpuWeights),
        PerformanceModel.withTransfers(mode), options);
  }

  /** Each GPU free, held whole, shared by MPS incumbents, or in a MIG layout with one instance held. */
  private static ClusterState incumbents(Cluster cluster, SplittableRandom r) {
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    InterferenceGuard guard = InterferenceGuard.defaults();
    ClusterState state = ClusterState.empty(cluster);
    int n = 0;
    for (Gpu g : cluster.gpus()) {
      int what = r.nextInt(20);
      if (what < 7) {
        continue; // free
      }
      if (what < 10) {
        state = state.allocate(RandomInstances.holdPlan("hold-" + n++, g.id()));
      } else if (what < 17 || !g.type().equals(A100)) {
        int tenants = g.type().equals(A100) ? 1 + r.nextInt(2) : 1;
        for (int i = 0; i < tenants; i++) {
          double fraction = List.of(0.25, 0.3, 0.5).get(r.nextInt(3));
          double slack = 1.01 + 0.25 * r.nextDouble();
          DecodeServices.Admission a = services.service("mps-" + n++, g.id(), new MpsShare(fraction, services.memory()), slack);
          try {
            state = guard.admit(state, a.request(), a.plan());
          } catch (AllocationRefusedException e) {
            // the GPU cannot take this tenant (memory, or a neighbour's SLO): it keeps the ones it has
          }
        }
      } else {
        List<MigSlice> layout = r.nextBoolean()
            ? List.of(new MigSlice("3g.40gb", 0), new MigSlice("3g.40gb", 4))
            : List.of(new MigSlice("2g.20gb", 0), new MigSlice("1g.10gb", 2), new MigSlice("1g.10gb", 3), new MigSlice("3g.40gb", 4));
        state = state.configureMig(g.id(), layout);
        DecodeServices.Admission a = services.service("mig-" + n++, g.id(), new MigSlice("3g.40gb", 4), 1.01 + 0.25 * r.nextDouble());
        state = guard.admit(state, a.request(), a.plan());
      }
    }
    return state;
  }
}
