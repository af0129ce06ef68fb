package org.rampa.heuristics.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.AllocationRefusedException;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.InterferenceGuard;

/**
 * The shared-GPU benchmark instance: 250 nodes × 4 catalog GPUs (100 A100-SXM4-80GB, 50
 * H100-SXM5-80GB, 50 L4, 50 A10 nodes), each GPU with probability 1/4 free, 1/4 held whole and 1/2
 * partly used: on A100 and H100, two in three of those in MPS mode with one or two Llama-2-7B
 * decode tenants (MPS 0.25, 0.3 or 0.5, latency bounds 1.02–1.5 × their time alone, so some
 * tolerate no co-runner), one in three in a MIG layout (3g+3g, or 2g+1g+1g+3g) with the 3g@4
 * instance held; on L4 and A10 one MPS tenant. Importance by type: L4 1, A10 2, A100 4, H100 8.
 */
final class SharedClusterInstance {
  private SharedClusterInstance() {}

  static Cluster cluster() {
    Map<String, Integer> nodes = new LinkedHashMap<>();
    nodes.put("A100-SXM4-80GB", 100);
    nodes.put("H100-SXM5-80GB", 50);
    nodes.put("L4", 50);
    nodes.put("A10", 50);
    return ClusterPresets.of(nodes, 4, ClusterPresets.NETWORK_100G);
  }

  /** Half of the GPUs partly used by MPS or MIG incumbents, a quarter held whole, a quarter free. */
  static ClusterState state(Cluster cluster, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    InterferenceGuard guard = InterferenceGuard.defaults();
    ClusterState state = ClusterState.empty(cluster);
    int n = 0;
    for (Gpu g : cluster.gpus()) {
      int what = r.nextInt(4);
      boolean migCapable = g.type().startsWith("A100") || g.type().startsWith("H100");
      if (what == 0) {
        continue;
      }
      if (what == 1) {
        state = state.allocate(RandomInstances.holdPlan("hold-" + n++, g.id()));
      } else if (migCapable && r.nextInt(3) == 0) {
        List<MigSlice> layout = r.nextBoolean()
            ? List.of(new MigSlice("3g.40gb", 0), new MigSlice("3g.40gb", 4))
            : List.of(new MigSlice("2g.20gb", 0), new MigSlice("1g.10gb", 2), new MigSlice("1g.10gb", 3), new MigSlice("3g.40gb", 4));
        state = state.configureMig(g.id(), layout);
        DecodeServices.Admission a = services.service("mig-" + n++, g.id(), new MigSlice("3g.40gb", 4), 1.02 + 0.48 * r.nextDouble());
        state = guard.admit(state, a.request(), a.plan());
      } else {
        int tenants = migCapable ? 1 + r.nextInt(2) : 1;
        for (int i = 0; i < tenants; i++) {
          double fraction = List.of(0.25, 0.3, 0.5).get(r.nextInt(3));
          DecodeServices.Admission a = services.service("mps-" + n++, g.id(), new MpsShare(fraction, services.memory()),
              1.02 + 0.48 * r.nextDouble());
          try {
            state = guard.admit(state, a.request(), a.plan());
          } catch (AllocationRefusedException e) {
            // a neighbour's SLO or the card's memory refuses this tenant: the GPU keeps the ones it has
          }
        }
      }
    }
    return state;
  }

  static StaticImportance importance() {
    return StaticImportance.byType(Map.of("L4", 1.0, "A10", 2.0, "A100-SXM4-80GB", 4.0, "H100-SXM5-80GB", 8.0));
  }

  /**
   * {@code workload} "decode" (a Llama-2-7B decode step at context 512, 50 req/s within 250 ms) or
   * "prefill" (a 512-token Llama-2-7B prompt, 4 req/s within 2 s), batch 1, maxStages 8, on
   * {@code state}, with sharing on or off.
   */
  static PlacementProblem problem(ClusterState state, String workload, boolean sharing) {
    Model model = workload.equals("decode") ? ModelCatalog.decode("llama2-7b", 512) : ModelCatalog.prefill("llama2-7b", 512);
    Slo slo = workload.equals("decode") ? Slo.of(50, Duration.ofMillis(250), 1) : Slo.of(4, Duration.ofSeconds(2), 1);
    ServiceRequest request = ServiceRequest.builder().id("new-" + workload).model(model).slo(slo).maxStages(8).build();
    StrategyOptions options = (sharing ? SharingOptions.on().withMargin("none") : SharingOptions.off()).applyTo(StrategyOptions.defaults());
    return new PlacementProblem(request, state, importance(), PerformanceModel.defaults(), options);
  }
}
