package org.rampa.solver.boundary;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.rampa.domain.BatchingWait;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.LatencyPoint;
import org.rampa.domain.LatencyProfile;
import org.rampa.domain.Layer;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.importance.ImportanceModel;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageAssignment;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.RandomInstances;

/**
 * Seeded tiny instances at the SLO's boundary for {@link ExactReference}: every layer time is a
 * measured whole number of nanoseconds and every transfer a whole number too (bandwidths that
 * divide 100 bytes per ns evenly, activations in multiples of 100 bytes), so a plan's latency is an
 * exact integer that an SLO can equal. Kinds by {@code seed % 6}: two with random SLOs around what
 * the fastest free GPUs can do; three built from a random placement so that its latency equals the
 * bound, its throughput equals λ (rounded to a double, so possibly an ulp above the exact value), or
 * both; and one with a node whose intra-node link is slower than the network. Any kind may have
 * such slow nodes (30 % of nodes), every transfer mode occurs, some GPUs are already held.
 */
final class BoundaryInstances {

  enum Kind { RANDOM, LATENCY_EQUAL, THROUGHPUT_EQUAL, BOTH_EQUAL, SLOW_INTRA }

  /** {@code slowIntraNode}: some node with two or more GPUs has an intra link slower than the network. */
  record Instance(long seed, Kind kind, PlacementProblem problem, boolean slowIntraNode) {}

  private static final long[] BANDWIDTHS_GB = {1, 2, 4, 5, 10, 20, 25};

  static Kind kindOf(long seed) {
    return switch ((int) Math.floorMod(seed, 6L)) {
      case 0, 1 -> Kind.RANDOM;
      case 2 -> Kind.LATENCY_EQUAL;
      case 3 -> Kind.THROUGHPUT_EQUAL;
      case 4 -> Kind.BOTH_EQUAL;
      default -> Kind.SLOW_INTRA;
    };
  }

  static Instance instance(long seed) {
    Kind kind = kindOf(seed);
    RandomInstances gen = new RandomInstances(seed);
    SplittableRandom r = gen.random();
    List<GpuType> types = RandomInstances.threeTypes().subList(0, 2 + r.nextInt(2));
    int batch = 1 + r.nextInt(4);
    long networkGb = kind == Kind.SLOW_INTRA ? BANDWIDTHS_GB[2 + r.nextInt(5)] : BANDWIDTHS_GB[r.nextInt(BANDWIDTHS_GB.length)];
    Link network = Link.of("net", networkGb * 1e9, Duration.ofNanos(1_000 + r.nextInt(30_000)));
    Link slow = Link.of("slow-pcie", 1e9, Duration.ofNanos(50_000));
    var cluster = Cluster.builder().gpuTypes(types).network(network);
    int nodes = 1 + r.nextInt(3);
    int budget = 6;
    boolean anySlow = false;
    for (int n = 0; n < nodes && budget > 0; n++) {
      boolean slowNode = (kind == Kind.SLOW_INTRA && n == 0) || r.nextDouble() < 0.3;
      Link intra = slowNode ? slow
          : r.nextBoolean() ? Link.of("nvlink", 25e9, Duration.ofNanos(2_000)) : Link.of("pcie", 20e9, Duration.ofNanos(4_000));
      cluster.addNodes(Node.of("n" + n, intra));
      int gpus = 1 + r.nextInt(Math.min(3, budget));
      // slower than the network at some cut: less bandwidth, or more latency (nvlink's 2 µs can be)
      anySlow |= gpus > 1 && (intra.bandwidthBytesPerSecond() < network.bandwidthBytesPerSecond()
          || intra.latency().compareTo(network.latency()) > 0);
      budget -= gpus;
      boolean mixed = r.nextDouble() < 0.4;
      String nodeType = types.get(r.nextInt(types.size())).name();
      for (int g = 0; g < gpus; g++) {
        cluster.addGpus(Gpu.of("n" + n + "g" + g, mixed ? types.get(r.nextInt(types.size())).name() : nodeType, "n" + n));
      }
    }
    Cluster c = cluster.build();
    ClusterState state = gen.partiallyAllocated(c, r.nextDouble() * 0.3);
    Model model = model(seed, r, types, batch);
    PerformanceModel performance = PerformanceModel.withTransfers(switch (r.nextInt(8)) {
      case 0, 1 -> TransferMode.SERIAL;
      case 2 -> TransferMode.NONE;
      default -> TransferMode.OVERLAPPED;
    });
    int maxStages = r.nextDouble() < 0.15 ? 1 : 2 + r.nextInt(3);
    ImportanceModel importance = RandomInstances.staticImportance(c, r);
    StrategyOptions options = StrategyOptions.builder().timeLimit(Duration.ofSeconds(20)).seed(seed)
        .transfers(performance.transferMode()).build();

    // a random SLO around the fastest free types; the equality kinds replace it when they can
    long fastest = 0;
    for (int l = 0; l < model.size(); l++) {
      long best = Long.MAX_VALUE;
      for (GpuType t : types) {
        best = Math.min(best, model.layer(l).profileFor(t.name()).orElseThrow().points().get(0).latency().toNanos());
      }
      fastest += best;
    }
    var slo = Slo.builder().batchSize(batch)
        .requiredThroughput(batch * 1e9 / (fastest * (0.15 + r.nextDouble() * 1.1)))
        .batchingWait(r.nextDouble() < 0.2 ? BatchingWait.FILL_AT_REQUIRED_RATE : BatchingWait.NONE);
    double wait = slo.latencyBound(Duration.ofSeconds(1)).build().batchingWaitSeconds();
    slo.latencyBound(Duration.ofNanos((long) (fastest * (0.95 + r.nextDouble() * 1.5) + wait * 1e9)));
    ServiceRequest request = ServiceRequest.builder().id("svc-" + seed).model(model).slo(slo.build()).maxStages(maxStages).build();
    PlacementProblem problem = new PlacementProblem(request, state, importance, performance, options);

    if (kind == Kind.LATENCY_EQUAL || kind == Kind.THROUGHPUT_EQUAL || kind == Kind.BOTH_EQUAL) {
      Optional<List<StageAssignment>> placement = randomPlacement(problem, r);
      if (placement.isPresent()) {
        ServiceRequest probe = ServiceRequest.builder().from(request)
            .slo(Slo.builder().from(request.slo()).batchingWait(BatchingWait.NONE).build()).build();
        PlacementProblem probing = new PlacementProblem(probe, state, importance, performance, options);
        ExactReference.Evaluation e = new ExactReference(probing).evaluate(placement.get());
        long latencyNanos = e.latencyNanos().num().divide(e.latencyNanos().den()).longValueExact();
        if (!e.latencyNanos().equals(Rational.of(latencyNanos))) {
          throw new IllegalStateException("seed " + seed + ": latency " + e.latencyNanos() + " ns is not whole");
        }
        double throughput = Rational.of(batch * 1_000_000_000L).dividedBy(e.periodNanos()).toDouble();
        Duration bound = kind == Kind.THROUGHPUT_EQUAL
            ? Duration.ofNanos((long) (latencyNanos * (1.05 + 0.5 * r.nextDouble())))
            : Duration.ofNanos(latencyNanos);
        double lambda = kind == Kind.LATENCY_EQUAL ? throughput * (0.5 + 0.45 * r.nextDouble()) : throughput;
        ServiceRequest equal = ServiceRequest.builder().from(probe)
            .slo(Slo.builder().from(probe.slo()).requiredThroughput(lambda).latencyBound(bound).build()).build();
        problem = new PlacementProblem(equal, state, importance, performance, options);
      }
    }
    return new Instance(seed, kind, problem, anySlow);
  }

  /** Layers with one measured time per type at the request's batch (a whole number of ns). */
  private static Model model(long seed, SplittableRandom r, List<GpuType> types, int batch) {
    int layers = 2 + r.nextInt(5);
    double totalWeights = (2 + r.nextDouble() * 38) * (1L << 30);
    List<Layer> list = new ArrayList<>();
    for (int l = 0; l < layers; l++) {
      long base = 1_000_000 + r.nextInt(20_000_000);
      var b = Layer.builder().name("l" + l).flopsPerSample(1e9)
          .weightBytes((long) (totalWeights / layers * (0.5 + r.nextDouble())))
          .outputBytesPerSample(100L * (1 + r.nextInt(40_000)));
      for (int t = 0; t < types.size(); t++) {
        long nanos = base * (types.size() - t) + r.nextInt(500_000);
        b.addProfiles(LatencyProfile.of(types.get(t).name(), LatencyPoint.of(batch, Duration.ofNanos(nanos))));
      }
      list.add(b.build());
    }
    return Model.of("boundary-" + seed, list);
  }

  /** A random placement on free GPUs that fits memory (SLO aside), or empty after a few tries. */
  private static Optional<List<StageAssignment>> randomPlacement(PlacementProblem p, SplittableRandom r) {
    ExactReference reference = new ExactReference(p);
    Cluster c = p.state().cluster();
    int layers = p.request().model().size();
    for (int attempt = 0; attempt < 20; attempt++) {
      int k = 1 + r.nextInt(Math.min(p.request().maxStages(), layers));
      List<Integer> cuts = new ArrayList<>();
      while (cuts.size() < k - 1) {
        int cut = 1 + r.nextInt(layers - 1);
        if (!cuts.contains(cut)) {
          cuts.add(cut);
        }
      }
      cuts.sort(null);
      cuts.add(layers);
      List<Gpu> free = new ArrayList<>(p.state().freeGpus());
      List<StageAssignment> stages = new ArrayList<>();
      int from = 0;
      for (int to : cuts) {
        if (free.isEmpty()) {
          break;
        }
        Gpu first = free.remove(r.nextInt(free.size()));
        List<String> gpus = new ArrayList<>(List.of(first.id()));
        for (Gpu g : List.copyOf(free)) {
          if (g.type().equals(first.type()) && r.nextDouble() < 0.3) {
            gpus.add(g.id());
            free.remove(g);
          }
        }
        if (reference.stageMemory(from, to) > c.type(first.type()).memoryBytes()) {
          break;
        }
        stages.add(StageAssignment.whole(from, to, gpus));
        from = to;
      }
      if (from == layers) {
        return Optional.of(stages);
      }
    }
    return Optional.empty();
  }


  private BoundaryInstances() {}
}
