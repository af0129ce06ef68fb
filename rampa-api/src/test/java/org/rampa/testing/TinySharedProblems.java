package org.rampa.testing;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.AllocationRefusedException;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.PartitionTemplate;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.TemplatePartition;
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
 * {@link #generate(long, int, int)} allows up to 6 GPUs with a second A100 node;
 * {@link #generateNpu(long, int, int)} and {@link #generateMi100(long, int, int)} make the same kind of
 * problem on NPUs with partition templates and on MI100s with CU masks.
 */
public final class TinySharedProblems {
  private TinySharedProblems() {}

  private static final String A100 = "A100-SXM4-80GB";
  private static final String L4 = "L4";

  public static PlacementProblem generate(long seed, int maxLayers) {
    return generate(seed, maxLayers, 4);
  }

  /**
   * As {@link #generate(long, int)} with at most {@code maxGpus} GPUs: beyond 4, a second A100
   * node "b" of 1-2 GPUs when room is left (same seeds give the same instances at 4).
   */
  public static PlacementProblem generate(long seed, int maxLayers, int maxGpus) {
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
    int room = maxGpus - a100s - l4s;
    if (maxGpus > 4 && room > 0) {
      b.addNodes(Node.of("b", catalog.entry(A100).intraNodeLink()));
      for (int i = 0, n = Math.min(room, 1 + r.nextInt(2)); i < n; i++) {
        b.addGpus(Gpu.of("b" + i, A100, "b"));
      }
    }
    Cluster cluster = b.build();
    return problem(seed, maxLayers, gen, cluster, incumbents(cluster, r), catalog.type(A100));
  }

  private static final String NPU = "NPU-8C-64GB";
  private static final String MI100 = "MI100";

  /**
   * As {@link #generate(long, int, int)} on the modelled NPU-8C-64GB (8 AI cores, templates of 1, 2,
   * 4 and 8 cores): one node of 1-3 NPUs and, when room is left, sometimes a second of 1-3, each NPU
   * free, held whole, or holding 1-2 decode services on templates; the SLO is scaled to the model's
   * time on a whole NPU. The NPUs' nodes use the A100 node's link (no NPU link is catalogued).
   */
  public static PlacementProblem generateNpu(long seed, int maxLayers, int maxGpus) {
    GpuType npu = SharingCatalog.standard().npuTypes().stream().filter(t -> t.name().equals(NPU)).findFirst().orElseThrow();
    return generateOneType(seed, maxLayers, maxGpus, npu, GpuCatalog.standard().entry(A100).intraNodeLink(), (state, gpu, services, r) -> {
      List<PartitionTemplate> fitting = state.partitioning(gpu).templates().stream()
          .filter(t -> t.memoryBytes() >= services.memory() && t.cores() < state.partitioning(gpu).npuCores()).toList();
      return new TemplatePartition(fitting.get(r.nextInt(fitting.size())).name());
    });
  }

  /**
   * As {@link #generateNpu(long, int, int)} on AMD MI100s (120 CUs, CU masking, no MPS), the
   * tenants on CU masks of 30, 40 or 60 CUs, which contend like MPS shares.
   */
  public static PlacementProblem generateMi100(long seed, int maxLayers, int maxGpus) {
    GpuCatalog catalog = GpuCatalog.standard();
    return generateOneType(seed, maxLayers, maxGpus, catalog.type(MI100), catalog.entry(MI100).intraNodeLink(),
        (state, gpu, services, r) -> new CuMask(List.of(30, 40, 60).get(r.nextInt(3)), services.memory()));
  }

  /** The placement of a tenant on {@code gpu} of {@code state}. */
  private interface TenantPlacement {
    Placement draw(ClusterState state, String gpu, DecodeServices services, SplittableRandom r);
  }

  /**
   * One node of 1-3 GPUs of {@code type} and, when room is left, sometimes a second of 1-3, each GPU
   * free, held whole, or holding 1-2 decode services on {@code tenant}'s placements.
   */
  private static PlacementProblem generateOneType(long seed, int maxLayers, int maxGpus, GpuType type, Link link, TenantPlacement tenant) {
    RandomInstances gen = new RandomInstances(seed);
    SplittableRandom r = gen.random();
    var b = Cluster.builder().network(ClusterPresets.NETWORK_100G).addGpuTypes(type);
    int first = Math.min(maxGpus, 1 + r.nextInt(3));
    b.addNodes(Node.of("n", link));
    for (int i = 0; i < first; i++) {
      b.addGpus(Gpu.of("n" + i, type.name(), "n"));
    }
    int room = maxGpus - first;
    if (room > 0 && r.nextBoolean()) {
      b.addNodes(Node.of("m", link));
      for (int i = 0, n = Math.min(room, 1 + r.nextInt(3)); i < n; i++) {
        b.addGpus(Gpu.of("m" + i, type.name(), "m"));
      }
    }
    Cluster cluster = b.build();
    return problem(seed, maxLayers, gen, cluster, tenants(cluster, r, tenant), type);
  }

  /** A random model and request for {@code seed}, its SLO scaled to the model's time on one whole {@code reference} GPU. */
  private static PlacementProblem problem(long seed, int maxLayers, RandomInstances gen, Cluster cluster, ClusterState state,
      GpuType reference) {
    SplittableRandom r = gen.random();
    int layers = 2 + r.nextInt(maxLayers - 1);
    Model model = gen.model(layers, 2 + r.nextInt(14), 0.3);
    int batch = 1 + r.nextInt(2);
    double t = PerformanceModel.defaults().stageSeconds(model, 0, layers, reference, batch);
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
    StrategyOptions options = SharingOptions.on().withMargin("none").applyTo(StrategyOptions.builder().seed(seed).transfers(mode)
        .timeLimit(Duration.ofSeconds(20)).build());
    return new PlacementProblem(request, state, StaticImportance.byType(typeWeights).withGpuWeights(gpuWeights),
        PerformanceModel.withTransfers(mode), options);
  }

  /** Each GPU free, held whole, or holding 1-2 decode services on {@code tenant}'s placements. */
  private static ClusterState tenants(Cluster cluster, SplittableRandom r, TenantPlacement tenant) {
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
        continue;
      }
      for (int i = 0, tenants = 1 + r.nextInt(2); i < tenants; i++) {
        Placement p = tenant.draw(state, g.id(), services, r);
        DecodeServices.Admission a = services.service("tenant-" + n++, g.id(), p, 1.01 + 0.25 * r.nextDouble());
        try {
          state = guard.admit(state, a.request(), a.plan());
        } catch (AllocationRefusedException e) {
          // the GPU cannot take this tenant (cores, compute, memory, or a neighbour's SLO): it keeps the ones it has
        }
      }
    }
    return state;
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
