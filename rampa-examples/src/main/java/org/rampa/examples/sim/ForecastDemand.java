package org.rampa.examples.sim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigProfile;
import org.rampa.heuristics.importance.ServiceClass;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.importance.ShareCost;
import org.rampa.moves.ForecastRoom;

/**
 * The forecast demand a defragmenter serves in a simulation: the workload's class mix, each class
 * weighing its probability on the smallest piece that serves it alone on each GPU type
 * ({@link StrandedCapacity#needs}, the fragmentation test's rule): its smallest MPS menu level
 * ({@link ShareCost#mpsEntry}) and its smallest MIG profile where the type has them, the whole GPU
 * where no piece does. Every other entry of every GPU's menu weighs 0, so room no class could use
 * counts for nothing ({@link ForecastRoom} weighs entries it is not told 1).
 *
 * <p>With {@code pipelines}, a class that no GPU type serves alone (its {@link StrandedCapacity#needs}
 * is empty: it needs a pipeline over several GPUs) weighs its probability on the whole GPU, so that
 * whole free GPUs, where its stages would go, count as room. Without it (the seventh session's measure)
 * such a class weighs nothing, and a defragmenter fills free GPUs with the pieces it consolidates.
 *
 * <p>MIG entries are keyed by profile name alone (as {@link ShareCost}'s are), so types sharing a
 * profile name share its weight.
 */
public final class ForecastDemand {

  private ForecastDemand() {}

  /**
   * The room measure for {@code workload} on {@code cluster}, each class's needs by {@code test} (its MPS levels are the room's),
   * with {@code pipelines} weighing the classes no GPU serves alone on the whole GPU.
   */
  public static ForecastRoom room(Cluster cluster, WorkloadForecast workload, StrandedCapacity test, boolean pipelines) {
    return new ForecastRoom(demand(cluster, workload, test, test.mpsLevels(), pipelines), test.mpsLevels());
  }

  /**
   * Every menu entry of {@code cluster}'s GPUs with its weight (0 when no class needs it as its smallest piece); with
   * {@code pipelines}, a class no type serves alone weighs on the whole GPU.
   */
  static Map<String, Double> demand(Cluster cluster, WorkloadForecast workload, StrandedCapacity test, List<Double> mpsLevels, boolean pipelines) {
    Map<String, Double> demand = new LinkedHashMap<>();
    demand.put(ShareCost.WHOLE, 0.0);
    ClusterState empty = ClusterState.empty(cluster);
    Map<String, GpuPartitioning> byType = new LinkedHashMap<>();
    for (Gpu g : cluster.gpus()) {
      byType.computeIfAbsent(g.type(), t -> empty.partitioning(g.id()));
    }
    byType.forEach((type, parts) -> {
      parts.mig().ifPresent(geometry -> geometry.profiles().forEach(p -> demand.putIfAbsent(p.name(), 0.0)));
      if (parts.mps()) {
        mpsLevels.forEach(level -> demand.put(ShareCost.mpsEntry(type, level), 0.0));
      }
    });
    double total = workload.totalWeight();
    for (ServiceClass c : workload.classes()) {
      double p = total > 0 ? c.weight() / total : 0;
      Map<String, StrandedCapacity.ClassNeed> needs = test.needs(c.template());
      if (pipelines && needs.isEmpty()) {
        demand.merge(ShareCost.WHOLE, p, Double::sum);
      }
      needs.forEach((type, need) -> {
        GpuPartitioning parts = byType.get(type);
        boolean piece = false;
        if (!Double.isNaN(need.mpsLevel()) && parts.mps()) {
          demand.merge(ShareCost.mpsEntry(type, need.mpsLevel()), p, Double::sum);
          piece = true;
        }
        if (parts.mig().isPresent() && !need.migProfiles().isEmpty()) {
          var geometry = parts.mig().get();
          MigProfile smallest = geometry.profiles().stream().filter(q -> need.migProfiles().contains(q.name()))
              .min(java.util.Comparator.comparingDouble(geometry::shareEquivalent)).orElseThrow();
          demand.merge(smallest.name(), p, Double::sum);
          piece = true;
        }
        if (!piece) {
          demand.merge(ShareCost.WHOLE, p, Double::sum);
        }
      });
    }
    return demand;
  }
}
