package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.ImmutableCluster;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MpsShare;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementResult;
import org.rampa.testing.Property;

/**
 * Greedy on GPUs priced by type alone reads classes of interchangeable GPUs ({@link WholeGpuClasses})
 * instead of a unit per free GPU: its results must be exactly those of the unit-per-GPU search,
 * which it takes when the costs do not say they are per type. Random mixed clusters (GPUs listed
 * in a shuffled order, so a node's first free GPU is not its position), random whole and MPS
 * holdings, requests from light to heavy, transfers charged and not.
 */
class GreedyTypeClassesTest {

  @Test
  void classesGiveTheSameResultsAsOneUnitPerFreeGpu() {
    Property.forSeeds("greedy on type classes = greedy on every free GPU", 40, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = shuffled(ClusterPresets.mixed(new int[] {1 + r.nextInt(4), 1 + r.nextInt(4), r.nextInt(4), 1 + r.nextInt(4)},
          1 + r.nextInt(4)), r);
      ClusterState state = held(cluster, r);
      // static weights from two values, so that types often tie on cost and greedy's tie-breaks decide
      java.util.Map<String, Double> weights = new java.util.HashMap<>();
      cluster.gpuTypes().forEach(t -> weights.put(t.name(), r.nextBoolean() ? 0.3 : 0.5));
      ImportanceModel byType = r.nextBoolean() ? ImportanceModels.capability() : StaticImportance.byType(weights);
      for (TransferMode mode : List.of(TransferMode.OVERLAPPED, TransferMode.NONE)) {
        for (ServiceRequest request : requests(r)) {
          PlacementResult classes = Rampa.on(state).strategy("greedy").importance(byType).transfers(mode).place(request);
          PlacementResult units = Rampa.on(state).strategy("greedy").importance(perGpu(byType)).transfers(mode).place(request);
          String msg = "seed " + seed + ", " + mode + ", " + request.id();
          assertThat(classes.status()).as(msg).isEqualTo(units.status());
          assertThat(classes.plan()).as(msg).isEqualTo(units.plan());
          assertThat(classes.reason()).as(msg).isEqualTo(units.reason());
          assertThat(classes.statistics().get("candidates")).as(msg).isEqualTo(units.statistics().get("candidates"));
        }
      }
    });
  }

  /** {@code model}'s costs without {@link GpuCosts#ofType}: greedy then makes and sorts a unit per free GPU. */
  private static ImportanceModel perGpu(ImportanceModel model) {
    return new ImportanceModel() {
      @Override
      public String name() {
        return model.name();
      }

      @Override
      public GpuCosts evaluate(ClusterState state) {
        GpuCosts costs = model.evaluate(state);
        return costs::of;
      }
    };
  }

  private static Cluster shuffled(Cluster cluster, SplittableRandom r) {
    List<Gpu> gpus = new ArrayList<>(cluster.gpus());
    Collections.shuffle(gpus, new java.util.Random(r.nextLong()));
    return ImmutableCluster.copyOf(cluster).withGpus(gpus);
  }

  /** Each GPU held whole, by an MPS share, or not at all. */
  private static ClusterState held(Cluster cluster, SplittableRandom r) {
    ClusterState state = ClusterState.empty(cluster);
    double p = r.nextDouble();
    int n = 0;
    for (Gpu g : cluster.gpus()) {
      double x = r.nextDouble();
      if (x < p * 0.8) {
        state = state.allocate(org.rampa.domain.Allocation.of("bg" + n++, List.of(Holding.whole(g.id(), 1))));
      } else if (x < p) {
        state = state.allocate(org.rampa.domain.Allocation.of("bg" + n++, List.of(Holding.of(g.id(), new MpsShare(0.5, 10), 1))));
      }
    }
    return state;
  }

  private static List<ServiceRequest> requests(SplittableRandom r) {
    return List.of(
        request("70b-prefill", ModelCatalog.prefill("llama2-70b", 512), 1 + r.nextInt(3), 1500 + r.nextInt(1500), 1 + r.nextInt(8)),
        request("13b-prefill", ModelCatalog.prefill("llama2-13b", 512), 2 + r.nextInt(10), 400 + r.nextInt(800), 1 + r.nextInt(8)),
        request("7b-decode", ModelCatalog.decode("llama2-7b", 512), 5 + r.nextInt(30), 100 + r.nextInt(200), 1 + r.nextInt(4)));
  }

  private static ServiceRequest request(String id, Model model, double rate, long latencyMs, int maxStages) {
    return ServiceRequest.builder().id(id).model(model).slo(Slo.of(rate, Duration.ofMillis(latencyMs), 1)).maxStages(maxStages).build();
  }
}
