package org.rampa.colocation;

import java.util.ArrayList;
import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;

/**
 * One way to split a service's model into a pipeline of contiguous stages (docs/SHARING.md section 5:
 * "a model may be split into stages and its stages placed on shares"): {@code cuts} are the layer
 * indexes where a new stage starts, strictly increasing inside (0, layers), so k cuts make k + 1
 * stages: [0, c1), [c1, c2) … [ck, layers).
 */
public record PipelinePartition(List<Integer> cuts) {

  public PipelinePartition {
    cuts = Invalid.listOf("partition.cuts", cuts);
    if (cuts.isEmpty()) {
      throw Invalid.value("partition.cuts", cuts, "must not be empty", "a partition without cuts is the whole model, which every service offers anyway");
    }
    if (cuts.get(0) < 1) {
      throw Invalid.value("partition.cuts", cuts, "every cut must be >= 1: a stage starts after layer 0 at the earliest");
    }
    for (int i = 1; i < cuts.size(); i++) {
      if (cuts.get(i) <= cuts.get(i - 1)) {
        throw Invalid.value("partition.cuts", cuts, "must be strictly increasing");
      }
    }
  }

  /** The number of stages: cuts + 1. */
  public int stages() {
    return cuts.size() + 1;
  }

  /** The first layer of stage {@code stage}. */
  public int from(int stage) {
    return stage == 0 ? 0 : cuts.get(stage - 1);
  }

  /** One past the last layer of stage {@code stage} of a model of {@code layers} layers. */
  public int to(int stage, int layers) {
    return stage == cuts.size() ? layers : cuts.get(stage);
  }

  /** Throws, naming the field, when a cut lies outside (0, layers) of {@code model}. */
  void requireFits(String field, Model model) {
    if (cuts.get(0) < 1 || cuts.get(cuts.size() - 1) >= model.size()) {
      throw Invalid.value(field, cuts, "every cut must lie in [1, " + (model.size() - 1) + "] for " + model.name() + "'s " + model.size() + " layers");
    }
  }

  /**
   * The contiguous split of {@code model} into {@code stages} stages of about equal FLOPs per
   * sample: stage k ends at the first layer where the running FLOPs reach k / stages of the total
   * (each stage keeps at least one layer). The precomputed partitions a catalog model offers.
   */
  public static PipelinePartition evenFlops(Model model, int stages) {
    if (stages < 2 || stages > model.size()) {
      throw Invalid.value("partition.stages", stages, "must lie in [2, " + model.size() + "] for " + model.name());
    }
    double total = model.totalFlopsPerSample();
    List<Integer> cuts = new ArrayList<>();
    double running = 0;
    for (int l = 0; l < model.size() && cuts.size() < stages - 1; l++) {
      running += model.layer(l).flopsPerSample();
      int last = cuts.isEmpty() ? 0 : cuts.get(cuts.size() - 1);
      int left = model.size() - (l + 1);
      boolean reached = running >= total * (cuts.size() + 1) / stages;
      // cut after layer l when the stage has its share, or when the remaining layers are just enough for the remaining stages
      if (l + 1 > last && (reached || left == stages - 1 - cuts.size())) {
        cuts.add(l + 1);
      }
    }
    return new PipelinePartition(cuts);
  }
}
