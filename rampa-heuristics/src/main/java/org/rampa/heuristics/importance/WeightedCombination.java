package org.rampa.heuristics.importance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;

/**
 * cost(g) = Σ_i w_i · cost_i(g) / max_g' cost_i(g'): each component is normalised by its largest
 * cost over all GPUs of the cluster in the evaluated state (so into [0, 1]; a component that is 0
 * everywhere contributes 0), which lets components of different units be mixed. Linear in the
 * weights; finite and ≥ 0 because each component is.
 */
final class WeightedCombination implements ImportanceModel {

  record Component(double weight, ImportanceModel model) {}

  private final List<Component> components;
  private final String name;

  WeightedCombination(List<Component> components) {
    this.components = List.copyOf(components);
    StringBuilder n = new StringBuilder();
    for (Component c : this.components) {
      n.append(n.length() == 0 ? "" : "+").append(c.weight()).append('*').append(c.model().name());
    }
    this.name = n.toString();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public GpuCosts evaluate(ClusterState state) {
    Cluster cluster = state.cluster();
    Map<String, Double> total = new HashMap<>();
    for (Gpu g : cluster.gpus()) {
      total.put(g.id(), 0.0);
    }
    List<GpuCosts> evaluated = new ArrayList<>();
    List<Double> scales = new ArrayList<>();
    for (Component c : components) {
      GpuCosts costs = c.model().evaluate(state);
      double[] values = new double[cluster.gpus().size()];
      double max = 0;
      for (int i = 0; i < values.length; i++) {
        String id = cluster.gpus().get(i).id();
        values[i] = costs.of(id);
        if (!Double.isFinite(values[i]) || values[i] < 0) {
          throw Invalid.value("importance[" + c.model().name() + "].cost(" + id + ")", values[i],
              "must be a finite number >= 0", "the component model is broken; check it on its own");
        }
        max = Math.max(max, values[i]);
      }
      if (max > 0) {
        double scale = c.weight() / max;
        evaluated.add(costs);
        scales.add(scale);
        for (int i = 0; i < values.length; i++) {
          total.merge(cluster.gpus().get(i).id(), scale * values[i], Double::sum);
        }
      }
    }
    return new Combined(total, evaluated, scales);
  }

  /** The combined costs: whole GPUs from the normalised totals, partial holdings from each component, scaled alike. */
  private record Combined(Map<String, Double> total, List<GpuCosts> evaluated, List<Double> scales) implements GpuCosts {

    @Override
    public double of(String gpuId) {
      Double cost = total.get(gpuId);
      if (cost == null) {
        throw Invalid.value("gpuId", gpuId, "no such GPU in the cluster");
      }
      return cost;
    }

    // each component's own cost of the holding, scaled as its whole-GPU costs: linear, like the whole
    @Override
    public double of(ClusterState holdingState, String gpuId, Placement placement) {
      if (placement instanceof Whole) {
        return of(gpuId);
      }
      of(gpuId); // rejects unknown ids
      double cost = 0;
      for (int i = 0; i < evaluated.size(); i++) {
        cost += scales.get(i) * evaluated.get(i).of(holdingState, gpuId, placement);
      }
      return cost;
    }

    // each component judges shares against the decision's levels, scaled as before
    @Override
    public GpuCosts forMpsLevels(List<Double> mpsLevels) {
      return new Combined(total, evaluated.stream().map(c -> c.forMpsLevels(mpsLevels)).toList(), scales);
    }
  }
}
