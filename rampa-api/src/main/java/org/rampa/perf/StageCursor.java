package org.rampa.perf;

import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.SharedStage;

/**
 * A stage {@code [from, to)} of one model at one batch size, grown one layer at a time: the one
 * place where a stage's memory and time are computed, for the performance model itself and for
 * every search that enumerates stages (so a search extending a stage by one layer pays one layer,
 * not the whole stage).
 *
 * <p>Memory of a stage at batch {@code b} is {@code weights + b·(state + working)}: weights and
 * per-request state (a KV cache) add up over the stage's layers, while of the transient working
 * sets only the largest counts, as the layers run one after another. The time of a stage on a
 * whole GPU is the sum of its layers' times, accumulated as layers are added; on a
 * {@link SharedGpu} it is the share-time tiers' answer for the whole stage (docs/SHARING.md section 2),
 * asked when the time is read: measured tables answer whole stages, not sums of layers.
 *
 * <p>Mutable and confined to one thread.
 */
public final class StageCursor {

  private final PerformanceModel performance;
  private final Model model;
  private final int batch;
  private final int from;
  private final List<? extends DeviceKind> kinds;
  private final double[] seconds;
  private int to;
  private long additiveBytes;
  private long peakBytes;
  private long weightBytes;

  StageCursor(PerformanceModel performance, Model model, int batch, int from, List<? extends DeviceKind> kinds) {
    if (batch < 1) {
      throw Invalid.value("batch", batch, "must be >= 1");
    }
    if (from < 0 || from >= model.size()) {
      throw Invalid.value("stage.from", from, "must lie in [0, " + model.size() + ") for a model of " + model.size() + " layers");
    }
    this.performance = performance;
    this.model = model;
    this.batch = batch;
    this.from = from;
    this.to = from;
    this.kinds = List.copyOf(kinds);
    this.seconds = new double[this.kinds.size()];
  }

  /** The memory that adds up over a stage's layers: weights plus per-request state. */
  static long additiveBytes(org.rampa.domain.Layer layer, int batch) {
    return layer.weightBytes() + (long) batch * layer.stateBytesPerSample();
  }

  /** The transient working set of one layer, of which a stage needs only the largest. */
  static long peakBytes(org.rampa.domain.Layer layer, int batch) {
    return (long) batch * layer.workingBytesPerSample();
  }

  public int from() {
    return from;
  }

  /** The end (exclusive) of the stage; equals {@link #from()} before the first {@link #add()}. */
  public int to() {
    return to;
  }

  /** True while the model has a layer after the stage's end. */
  public boolean canAdd() {
    return to < model.size();
  }

  /** Adds layer {@link #to()} to the stage. */
  public StageCursor add() {
    if (!canAdd()) {
      throw Invalid.value("stage.to", to, "the model has only " + model.size() + " layers");
    }
    var layer = model.layer(to);
    additiveBytes += additiveBytes(layer, batch);
    weightBytes += layer.weightBytes();
    peakBytes = Math.max(peakBytes, peakBytes(layer, batch));
    for (int k = 0; k < seconds.length; k++) {
      if (kinds.get(k) instanceof WholeGpu whole) {
        seconds[k] += performance.layerSeconds(layer, whole.type(), batch);
      }
    }
    to++;
    return this;
  }

  /** Memory the stage needs on each of its devices, in bytes. */
  public long memoryBytes() {
    return additiveBytes + peakBytes;
  }

  /** Weights and per-request state only: the part of {@link #memoryBytes()} no split can avoid. */
  public long additiveMemoryBytes() {
    return additiveBytes;
  }

  /** The weights of the stage's layers alone: the part of {@link #memoryBytes()} that does not grow with the batch. */
  public long weightBytes() {
    return weightBytes;
  }

  /** True when the stage's memory fits on one device of {@code kind}. */
  public boolean fitsOn(DeviceKind kind) {
    return memoryBytes() <= kind.memoryBytes();
  }

  /** T_k: one batch through the stage on one device of the cursor's {@code k}-th kind, in seconds. */
  public double seconds(int k) {
    DeviceKind kind = kinds.get(k);
    if (kind instanceof SharedGpu shared) {
      if (to == from) {
        return 0;
      }
      var stage = new SharedStage(model, from, to, batch, shared.type(), shared.gpu(), shared.placement());
      return performance.shareTimes().seconds(stage).orElseThrow();
    }
    if (model.runtime() != ServingRuntime.TENSORRT && to > from) {
      // the layer sums are the catalog's TensorRT calibration: another runtime's whole GPU is what the share
      // tiers answer for it (ParvaGPU's 7g instance for PyTorch eager), so one service never mixes two runtimes
      var stage = new SharedStage(model, from, to, batch, kind.type(), kind.type().partitioning(), new Whole());
      return performance.shareTimes().seconds(stage).orElseThrow();
    }
    return seconds[k];
  }

  /**
   * τ at the stage's end over {@code link} for one batch, in seconds: 0 at the model's end and with
   * transfers NONE.
   */
  public double transferOutSeconds(Link link) {
    return to < model.size() ? performance.transferSeconds(model, to, batch, link) : 0;
  }
}
