package org.rampa.heuristics.importance;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.rampa.domain.Invalid;
import org.rampa.importance.ImportanceModel;

/** Collects (weight, model) pairs for {@link ImportanceModels#combination()}; validates each at once. */
public final class CombinationBuilder {

  private final List<WeightedCombination.Component> components = new ArrayList<>();

  CombinationBuilder() {}

  /** Adds {@code weight} × (the model's costs normalised to at most 1). */
  public CombinationBuilder add(double weight, ImportanceModel model) {
    Objects.requireNonNull(model, "model");
    if (!Double.isFinite(weight) || weight < 0) {
      throw Invalid.value("combination.weight[" + model.name() + "]", weight, "must be a finite number >= 0",
          "a negative weight would reward consuming important GPUs; leave the model out instead");
    }
    components.add(new WeightedCombination.Component(weight, model));
    return this;
  }

  public ImportanceModel build() {
    if (components.isEmpty()) {
      throw Invalid.value("combination.components", "[]", "needs at least one model", "add(1.0, model)");
    }
    return new WeightedCombination(components);
  }
}
