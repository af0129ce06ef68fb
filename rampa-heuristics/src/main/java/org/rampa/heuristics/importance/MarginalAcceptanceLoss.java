package org.rampa.heuristics.importance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Invalid;
import org.rampa.domain.Link;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.PerformanceModel;
import org.rampa.importance.ImportanceModel;

/**
 * Marginal acceptance loss: cost(g) = the expected number of forecast arrivals, per arrival, that
 * could be placed now but not once g is taken. Dimensionless, in [0, 1].
 *
 * <p>Estimate: {@code samples} services are drawn from the forecast with a fixed seed (the same
 * draws for every GPU and every decision with the same forecast snapshot, so differences between
 * GPUs are not sampling noise); each drawn service is judged alone by the {@link Placeability}
 * oracle against the state and against the state with g's remaining share and memory held by a
 * probe. Draws of the same class are judged once.
 *
 * <p>Cost control: GPUs are interchangeable when they have the same type and free share and
 * memory and sit on nodes with the same link and the same multiset of (type, free share, free
 * memory) over their GPUs; the oracle is consulted for one representative of each class (its
 * contract requires id-independent answers). Fully held GPUs cost 0 without a query. Results are
 * cached per (forecast snapshot, cluster, multiset of node profiles), so a state evaluated again —
 * or any state equal to it up to renaming nodes — costs one pass over the GPUs.
 */
final class MarginalAcceptanceLoss implements ImportanceModel {

  private static final double HELD = 1e-9;
  private static final int CACHE_ENTRIES = 32;

  /** What is free on one GPU. */
  private record Slot(String type, double freeShare, long freeMemory) {}

  /** A node up to renaming: its link and the sorted free slots of its GPUs. */
  private record NodeProfile(Link link, List<Slot> slots) {}

  /** A GPU up to renaming. */
  private record Equivalence(NodeProfile node, Slot self) {}

  /** Compares by identity, for cache keys over immutable snapshots that are costly to hash. */
  private record Identity(Object ref) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Identity other && other.ref == ref;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(ref);
    }
  }

  private record CacheKey(Identity forecast, Identity cluster, Map<NodeProfile, Integer> nodes) {}

  private record Draws(WorkloadForecast forecast, int[] perClass) {}

  private final Supplier<WorkloadForecast> forecast;
  private final Placeability placeability;
  private final int samples;
  private final long seed;
  private volatile Draws lastDraws;
  // the oracle keeps its performance model to itself: the menu's demand is judged under the defaults
  private final MenuDemand menuDemand = new MenuDemand(PerformanceModel.defaults());
  private final Map<CacheKey, Map<Equivalence, Double>> cache = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<CacheKey, Map<Equivalence, Double>> eldest) {
      return size() > CACHE_ENTRIES;
    }
  };
  final AtomicLong oracleCalls = new AtomicLong();
  final AtomicLong cacheHits = new AtomicLong();
  final AtomicLong equivalenceClasses = new AtomicLong();

  MarginalAcceptanceLoss(Supplier<WorkloadForecast> forecast, Placeability placeability, int samples, long seed) {
    this.forecast = forecast;
    this.placeability = placeability;
    this.samples = samples;
    this.seed = seed;
  }

  @Override
  public String name() {
    return "marginal-loss";
  }

  @Override
  public GpuCosts evaluate(ClusterState state) {
    WorkloadForecast f = forecast.get();
    Cluster cluster = state.cluster();
    if (f.isEmpty()) {
      return gpu -> {
        cluster.gpu(gpu); // rejects unknown ids, as for a non-empty forecast
        return 0.0;
      };
    }
    Map<String, NodeProfile> profiles = new HashMap<>();
    Map<String, Slot> gpuSlots = new HashMap<>();
    Map<NodeProfile, Integer> histogram = new HashMap<>();
    for (Node n : cluster.nodes()) {
      List<Slot> slots = new ArrayList<>();
      for (Gpu g : cluster.gpusOn(n.id())) {
        Slot s = slotOf(state, g);
        gpuSlots.put(g.id(), s);
        slots.add(s);
      }
      slots.sort((a, b) -> a.type().equals(b.type())
          ? a.freeShare() != b.freeShare() ? Double.compare(a.freeShare(), b.freeShare()) : Long.compare(a.freeMemory(), b.freeMemory())
          : a.type().compareTo(b.type()));
      NodeProfile p = new NodeProfile(n.intraLink(), List.copyOf(slots));
      profiles.put(n.id(), p);
      histogram.merge(p, 1, Integer::sum);
    }
    CacheKey key = new CacheKey(new Identity(f), new Identity(cluster), histogram);
    Map<Equivalence, Double> loss;
    synchronized (cache) {
      loss = cache.get(key);
    }
    if (loss != null) {
      cacheHits.incrementAndGet();
    } else {
      loss = compute(f, state, profiles, gpuSlots);
      synchronized (cache) {
        cache.put(key, loss);
      }
    }
    Map<String, Double> costs = new HashMap<>();
    for (Gpu g : cluster.gpus()) {
      costs.put(g.id(), loss.getOrDefault(new Equivalence(profiles.get(g.node()), gpuSlots.get(g.id())), 0.0));
    }
    GpuCosts perGpu = gpuId -> {
      Double cost = costs.get(gpuId);
      if (cost == null) {
        throw Invalid.value("gpuId", gpuId, "no such GPU in the cluster");
      }
      return cost;
    };
    return new ForecastShareCosts(perGpu, levels -> menuDemand.of(f, cluster, levels));
  }

  private Map<Equivalence, Double> compute(
      WorkloadForecast f, ClusterState state, Map<String, NodeProfile> profiles, Map<String, Slot> gpuSlots) {
    int[] draws = drawsOf(f);
    List<ServiceRequest> placeableNow = new ArrayList<>();
    List<Integer> weightNow = new ArrayList<>();
    for (int c = 0; c < draws.length; c++) {
      if (draws[c] > 0) {
        ServiceRequest r = f.classes().get(c).template();
        oracleCalls.incrementAndGet();
        if (placeability.canPlace(r, state)) {
          placeableNow.add(r);
          weightNow.add(draws[c]);
        }
      }
    }
    Map<Equivalence, String> representatives = new LinkedHashMap<>();
    for (Gpu g : state.cluster().gpus()) {
      Slot s = gpuSlots.get(g.id());
      if (s.freeShare() > HELD) {
        representatives.putIfAbsent(new Equivalence(profiles.get(g.node()), s), g.id());
      }
    }
    equivalenceClasses.addAndGet(representatives.size());
    Map<Equivalence, Double> loss = new HashMap<>();
    for (Map.Entry<Equivalence, String> e : representatives.entrySet()) {
      double lost = 0;
      if (!placeableNow.isEmpty()) {
        Predicate<ServiceRequest> placeableWithout = placeability.placeableWithout(state, e.getValue());
        for (int i = 0; i < placeableNow.size(); i++) {
          oracleCalls.incrementAndGet();
          if (!placeableWithout.test(placeableNow.get(i))) {
            lost += weightNow.get(i);
          }
        }
      }
      loss.put(e.getKey(), lost / samples);
    }
    return Map.copyOf(loss);
  }

  /** How many of the {@code samples} seeded draws fall on each class of the forecast. */
  private int[] drawsOf(WorkloadForecast f) {
    Draws d = lastDraws;
    if (d != null && d.forecast() == f) {
      return d.perClass();
    }
    int[] perClass = new int[f.classes().size()];
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < samples; i++) {
      perClass[f.sampleIndex(random)]++;
    }
    lastDraws = new Draws(f, perClass);
    return perClass;
  }

  private static Slot slotOf(ClusterState state, Gpu g) {
    return state.capacity().contains(g.id())
        ? new Slot(g.type(), 1.0, state.cluster().type(g.type()).memoryBytes())
        : new Slot(g.type(), state.freeShare(g.id()), state.freeMemoryBytes(g.id()));
  }
}
