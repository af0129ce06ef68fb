package org.rampa.solver;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.GpuCatalog;
import org.rampa.domain.AllocationRefusedException;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Node;
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
 * The shared-cluster benchmark workload: {@link TransformerClusters}' Llama-2-7B-like blocks and
 * SLOs on nodes of 4 catalog GPUs (L4, A100-SXM4-80GB or H100-SXM5-80GB per node, the catalog's
 * intra-node links, 100 GbE between) where, per GPU, about 40 % are free, 25 % held whole, 25 %
 * shared by one or two MPS incumbents (Llama-2-7B decode steps whose latency bounds leave room for
 * 0 to several co-runners) and, on A100/H100, 10 % in a MIG layout with one instance held.
 * Sharing is on with the default menu.
 */
final class SharedClusters {

  static final List<String> TYPES = List.of("L4", "A100-SXM4-80GB", "H100-SXM5-80GB");
  static final StaticImportance IMPORTANCE = StaticImportance.byType(Map.of("L4", 1.0, "A100-SXM4-80GB", 5.0, "H100-SXM5-80GB", 9.0));

  static Cluster cluster(int gpus, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    GpuCatalog catalog = GpuCatalog.standard();
    var b = Cluster.builder().network(ClusterPresets.NETWORK_100G);
    TYPES.forEach(t -> b.addGpuTypes(catalog.type(t)));
    for (int n = 0; n < gpus / 4; n++) {
      String node = String.format("n%03d", n);
      String type = TYPES.get(r.nextInt(TYPES.size()));
      b.addNodes(Node.of(node, catalog.entry(type).intraNodeLink()));
      for (int g = 0; g < 4; g++) {
        b.addGpus(Gpu.of(node + "g" + g, type, node));
      }
    }
    return b.build();
  }

  static ClusterState state(Cluster cluster, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    InterferenceGuard guard = InterferenceGuard.defaults();
    ClusterState state = ClusterState.empty(cluster);
    int n = 0;
    for (Gpu g : cluster.gpus()) {
      int what = r.nextInt(20);
      boolean mig = !g.type().equals("L4");
      if (what < 8) {
        continue;
      }
      if (what < 13) {
        state = state.allocate(RandomInstances.holdPlan("hold-" + n++, g.id()));
      } else if (what < 18 || !mig) {
        for (int i = 0, tenants = 1 + r.nextInt(2); i < tenants; i++) {
          double fraction = List.of(0.25, 0.3, 0.5).get(r.nextInt(3));
          var a = services.service("mps-" + n++, g.id(), new MpsShare(fraction, services.memory()), 1.01 + 0.3 * r.nextDouble());
          try {
            state = guard.admit(state, a.request(), a.plan());
          } catch (AllocationRefusedException e) {
            // the GPU cannot take this tenant: it keeps the ones it has
          }
        }
      } else {
        state = state.configureMig(g.id(), List.of(new MigSlice("2g.20gb", 0), new MigSlice("1g.10gb", 2),
            new MigSlice("1g.10gb", 3), new MigSlice("3g.40gb", 4)));
        var a = services.service("mig-" + n++, g.id(), new MigSlice("3g.40gb", 4), 1.01 + 0.25 * r.nextDouble());
        state = guard.admit(state, a.request(), a.plan());
      }
    }
    return state;
  }

  /** {@link TransformerClusters}' request and SLOs on a shared cluster, sharing on. */
  static PlacementProblem problem(int gpus, int blocks, long seed, boolean tight) {
    return problem(gpus, blocks, seed, tight, Duration.ofSeconds(60));
  }

  /** As {@link #problem(int, int, long, boolean)} with the time limit {@code limit}. */
  static PlacementProblem problem(int gpus, int blocks, long seed, boolean tight, Duration limit) {
    Cluster cluster = cluster(gpus, seed);
    boolean large = blocks > 40;
    Slo slo = tight
        ? Slo.of(large ? 25 : 60, Duration.ofMillis(large ? 150 : 60), 1)
        : Slo.of(large ? 8 : 20, Duration.ofMillis(large ? 400 : 250), 1);
    ServiceRequest request = ServiceRequest.builder().id("llm-" + blocks).model(TransformerClusters.transformer(blocks)).slo(slo)
        .maxStages(8).build();
    StrategyOptions options = SharingOptions.on().withMargin("none").applyTo(StrategyOptions.builder().timeLimit(limit).seed(seed).build());
    return new PlacementProblem(request, state(cluster, seed + 1), IMPORTANCE, PerformanceModel.defaults(), options);
  }

  /** Quick timing: {@code blocks} {@code slo} [instances]; prints status, time and the model's size per instance. */
  public static void main(String[] args) {
    int blocks = Integer.parseInt(args[0]);
    boolean tight = args[1].equals("tight");
    int instances = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    ExactStrategy exact = ExactStrategy.scip();
    for (long seed = 1; seed <= instances; seed++) {
      PlacementProblem p = problem(1000, blocks, seed, tight);
      long t0 = System.nanoTime();
      var result = exact.place(p);
      System.out.printf("seed %d %s %.1f ms %s cost %s%n", seed, result.status(), (System.nanoTime() - t0) / 1e6,
          result.statistics(), result.plan().map(pl -> pl.cost() + " " + pl.stages()).orElse(result.reason()));
    }
  }

  private SharedClusters() {}
}
