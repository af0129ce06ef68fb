package org.rampa.heuristics.importance;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.rampa.domain.ClusterState;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ShareCost;
import org.rampa.strategy.SharingOptions;

/**
 * A forecast-driven model's costs extended to partial GPUs (docs/SHARING.md section 4): holding a part
 * of a GPU costs its importance × (share equivalent + the free capacity the part strands for the
 * forecast's demand, {@link ShareCost#fragmentation}), over a menu with the decision's MPS levels
 * ({@link #forMpsLevels}; the default levels until a menu asks for others). The fragmentation term
 * is weighed by the GPU's own importance (λ = importance), so it stays in the model's unit and
 * vanishes where the model sees no demand. The whole GPU costs exactly its importance (it strands
 * nothing: nothing is left free), computed without the menu so that whole-GPU planning never pays
 * for it.
 */
final class ForecastShareCosts implements GpuCosts {

  private final GpuCosts importance;
  private final Function<List<Double>, Map<String, Double>> demand;
  private final List<Double> mpsLevels;
  private final Supplier<ShareCost> menu;

  /** @param demand the menu's demand weights for given MPS levels ({@link MenuDemand}), asked for on the first partial holding priced */
  ForecastShareCosts(GpuCosts importance, Function<List<Double>, Map<String, Double>> demand) {
    this(importance, demand, SharingOptions.DEFAULT_MPS_LEVELS);
  }

  private ForecastShareCosts(GpuCosts importance, Function<List<Double>, Map<String, Double>> demand, List<Double> mpsLevels) {
    this.importance = importance;
    this.demand = demand;
    this.mpsLevels = List.copyOf(mpsLevels);
    this.menu = Memoized.of(() -> new ShareCost(1.0, demand.apply(this.mpsLevels), this.mpsLevels));
  }

  @Override
  public double of(String gpuId) {
    return importance.of(gpuId);
  }

  @Override
  public double of(ClusterState state, String gpuId, Placement placement) {
    double cost = importance.of(gpuId);
    if (placement instanceof Whole) {
      return cost;
    }
    return cost * (placement.shareEquivalent(state.partitioning(gpuId)) + menu.get().fragmentation(state, gpuId, placement));
  }

  @Override
  public GpuCosts forMpsLevels(List<Double> levels) {
    return levels.equals(mpsLevels) ? this : new ForecastShareCosts(importance, demand, levels);
  }
}
