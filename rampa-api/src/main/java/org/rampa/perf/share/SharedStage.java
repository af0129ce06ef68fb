package org.rampa.perf.share;

import java.util.Objects;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.Placement;

/**
 * Layers {@code [from, to)} of a model at one batch size on one placement of a GPU of {@code type},
 * whose partitioning is {@code gpu}. The placement is checked against the partitioning here, so
 * every share-time model sees only placements that can exist.
 */
public record SharedStage(Model model, int from, int to, int batch, GpuType type, GpuPartitioning gpu, Placement placement) {

  public SharedStage {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(placement, "placement");
    if (from < 0 || from >= to || to > model.size()) {
      throw Invalid.value("stage", "[" + from + ", " + to + ")", "must be a non-empty range of the model's " + model.size() + " layers");
    }
    if (batch < 1) {
      throw Invalid.value("stage.batch", batch, "must be >= 1");
    }
    if (!gpu.gpuType().equals(type.name())) {
      throw Invalid.value("stage.gpu", gpu.gpuType(), "is the partitioning of another type than " + type.name());
    }
    placement.requireOn(gpu);
  }

  /** The whole model as one stage. */
  public static SharedStage wholeModel(Model model, int batch, GpuType type, GpuPartitioning gpu, Placement placement) {
    return new SharedStage(model, 0, model.size(), batch, type, gpu, placement);
  }

  public boolean coversWholeModel() {
    return from == 0 && to == model.size();
  }

  public double computeFraction() {
    return placement.computeFraction(gpu);
  }

  public double bandwidthFraction() {
    return placement.bandwidthFraction(gpu);
  }
}
