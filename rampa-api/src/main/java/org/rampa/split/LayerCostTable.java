package org.rampa.split;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Layer;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.perf.LayerMemory;
import org.rampa.perf.PerformanceModel;

/**
 * Everything the period-minimising split needs about a chain of {@code L} layers, as plain numbers:
 * the time of every layer on every device kind, the time to ship one batch across every cut, and
 * every layer's memory. Built from a {@link Model} and the performance model ({@link #forModel}), or
 * directly from an imported profile whose times were measured (then {@link #timeUnit()} says what
 * the numbers mean, "ms" say, and every period computed from the table is in that unit).
 *
 * <p>Memory of a stage {@code [a, b)} = {@code Σ layerMemory[a..b) + max layerPeakMemory[a..b)}:
 * the first part adds up (weights, per-request state), the second is a transient working set of
 * which only the largest counts (as {@link org.rampa.perf.StageCursor} counts it).
 *
 * <p>Transfers: {@code cutTimes[c]} is the time to ship one batch across the cut before layer
 * {@code c} (size {@code L + 1}; entries 0 and L are 0). When {@link #tensors()} is non-empty,
 * serial transfers are charged per tensor as Tarnawski et al. define (see {@link TensorTransfer})
 * and {@code cutTimes} must be the sum of the costs of the tensors crossing each cut.
 *
 * @param timeUnit unit of every time in the table ("s" for tables built from a model)
 * @param layerTimes per device kind name, the time of each layer (size L) on one device of that kind
 * @param cutTimes per cut 0..L, the time to ship one batch across it
 * @param layerMemoryBytes per layer, memory that adds up over a stage
 * @param layerPeakMemoryBytes per layer, transient memory of which a stage needs the largest
 * @param tensors optional per-tensor transfer costs for serial, per-device accounting
 */
public record LayerCostTable(
    String timeUnit,
    Map<String, List<Double>> layerTimes,
    List<Double> cutTimes,
    List<Long> layerMemoryBytes,
    List<Long> layerPeakMemoryBytes,
    List<TensorTransfer> tensors) {

  /** Relative tolerance when checking that cut times agree with the tensors. */
  private static final double CUT_TOLERANCE = 1e-9;

  public LayerCostTable {
    Invalid.requireNonBlank("costTable.timeUnit", timeUnit);
    layerTimes = copyTimes(layerTimes);
    cutTimes = List.copyOf(cutTimes);
    layerMemoryBytes = List.copyOf(layerMemoryBytes);
    layerPeakMemoryBytes = List.copyOf(layerPeakMemoryBytes);
    tensors = List.copyOf(tensors);
    if (layerTimes.isEmpty()) {
      throw Invalid.value("costTable.layerTimes", "{}", "needs the layer times of at least one device kind");
    }
    int layers = layerMemoryBytes.size();
    if (layers == 0) {
      throw Invalid.value("costTable.layerMemoryBytes", "[]", "a table needs at least one layer");
    }
    for (Map.Entry<String, List<Double>> e : layerTimes.entrySet()) {
      if (e.getValue().size() != layers) {
        throw Invalid.value("costTable.layerTimes[" + e.getKey() + "].size", e.getValue().size(),
            "must equal the number of layers (" + layers + ")");
      }
      for (int l = 0; l < layers; l++) {
        Invalid.requireFiniteNonNegative("costTable.layerTimes[" + e.getKey() + "][" + l + "]", e.getValue().get(l));
      }
    }
    if (layerPeakMemoryBytes.size() != layers) {
      throw Invalid.value("costTable.layerPeakMemoryBytes.size", layerPeakMemoryBytes.size(),
          "must equal the number of layers (" + layers + ")", "pass zeros when memory simply adds up");
    }
    for (int l = 0; l < layers; l++) {
      Invalid.requireNonNegative("costTable.layerMemoryBytes[" + l + "]", layerMemoryBytes.get(l));
      Invalid.requireNonNegative("costTable.layerPeakMemoryBytes[" + l + "]", layerPeakMemoryBytes.get(l));
    }
    if (cutTimes.size() != layers + 1) {
      throw Invalid.value("costTable.cutTimes.size", cutTimes.size(), "must be layers + 1 (" + (layers + 1) + ")",
          "index c is the cut before layer c; entries 0 and L are the model's own input and output");
    }
    for (int c = 0; c <= layers; c++) {
      Invalid.requireFiniteNonNegative("costTable.cutTimes[" + c + "]", cutTimes.get(c));
    }
    if (cutTimes.get(0) != 0 || cutTimes.get(layers) != 0) {
      throw Invalid.value("costTable.cutTimes[0, L]", cutTimes.get(0) + ", " + cutTimes.get(layers),
          "must be 0: nothing is shipped before the first or after the last layer");
    }
    for (TensorTransfer t : tensors) {
      if (t.lastConsumer() >= layers) {
        throw Invalid.value("costTable.tensors[" + t.producer() + "].consumers", t.consumers(),
            "refer to a layer beyond the table's " + layers + " layers");
      }
    }
    if (!tensors.isEmpty()) {
      double[] crossing = crossingCosts(tensors, layers);
      for (int c = 0; c <= layers; c++) {
        if (Math.abs(crossing[c] - cutTimes.get(c)) > CUT_TOLERANCE * Math.max(1, crossing[c])) {
          throw Invalid.value("costTable.cutTimes[" + c + "]", cutTimes.get(c),
              "must equal the cost of the tensors crossing the cut (" + crossing[c] + ")",
              "build the table with LayerCostTable.withTensors(...)");
        }
      }
    }
  }

  public int layers() {
    return layerMemoryBytes.size();
  }

  public Set<String> deviceKinds() {
    return layerTimes.keySet();
  }

  /** The layer times of one device kind. */
  public List<Double> timesOf(String kind) {
    List<Double> times = layerTimes.get(kind);
    if (times == null) {
      throw Invalid.value("deviceKind", kind, "the cost table has no times for this kind (known: " + layerTimes.keySet() + ")");
    }
    return times;
  }

  /**
   * A table for {@code model} at batch {@code batch}: one device kind per GPU type (named as the
   * type), layer times from {@code performance}, cut times over {@code link} under
   * {@code performance}'s transfer mode rules (latency + batch × cut bytes / bandwidth), and memory
   * as {@link PerformanceModel#layerMemory} gives it. Times are in seconds.
   */
  public static LayerCostTable forModel(Model model, int batch, List<GpuType> types, Link link, PerformanceModel performance) {
    if (batch < 1) {
      throw Invalid.value("batch", batch, "must be >= 1");
    }
    // per-layer times are the catalog's TensorRT calibration: another runtime's model would be split on a runtime it does not run
    if (model.runtime() != ServingRuntime.TENSORRT) {
      throw Invalid.value("model.runtime", model.runtime(), "layer cost tables time layers one by one, which only the tensorrt calibration does",
          "build the LayerCostTable from that runtime's measured per-layer times, or serve the model with tensorrt");
    }
    int layers = model.size();
    Map<String, List<Double>> times = new LinkedHashMap<>();
    for (GpuType type : types) {
      List<Double> t = new ArrayList<>(layers);
      for (Layer layer : model.layers()) {
        t.add(performance.layerSeconds(layer, type, batch));
      }
      times.put(type.name(), t);
    }
    List<Double> cuts = new ArrayList<>(layers + 1);
    for (int c = 0; c <= layers; c++) {
      cuts.add(c == 0 || c == layers ? 0.0 : link.transferSeconds((double) batch * model.cutBytesPerSample(c)));
    }
    LayerMemory memory = PerformanceModel.layerMemory(model, batch);
    return new LayerCostTable("s", times, cuts, memory.additiveBytes(), memory.peakBytes(), List.of());
  }

  /**
   * A table whose transfers are given per tensor; the cut times are derived (each cut carries every
   * tensor produced before it and read after it).
   */
  public static LayerCostTable withTensors(
      String timeUnit, Map<String, List<Double>> layerTimes, List<Long> layerMemoryBytes, List<TensorTransfer> tensors) {
    int layers = layerMemoryBytes.size();
    for (TensorTransfer t : tensors) {
      if (t.lastConsumer() >= layers) {
        throw Invalid.value("tensors[" + t.producer() + "].consumers", t.consumers(),
            "refer to a layer beyond the table's " + layers + " layers");
      }
    }
    double[] crossing = crossingCosts(tensors, layers);
    List<Double> cuts = new ArrayList<>(layers + 1);
    for (double c : crossing) {
      cuts.add(c);
    }
    List<Long> zeros = new ArrayList<>(layers);
    for (int l = 0; l < layers; l++) {
      zeros.add(0L);
    }
    return new LayerCostTable(timeUnit, layerTimes, cuts, layerMemoryBytes, zeros, tensors);
  }

  private static double[] crossingCosts(List<TensorTransfer> tensors, int layers) {
    double[] diff = new double[layers + 2];
    for (TensorTransfer t : tensors) {
      diff[t.producer() + 1] += t.cost();
      diff[t.lastConsumer() + 1] -= t.cost();
    }
    double[] cuts = new double[layers + 1];
    double running = 0;
    for (int c = 0; c <= layers; c++) {
      running += diff[c];
      cuts[c] = c == 0 || c == layers ? 0 : Math.max(0, running);
    }
    return cuts;
  }

  private static Map<String, List<Double>> copyTimes(Map<String, List<Double>> times) {
    Map<String, List<Double>> copy = new LinkedHashMap<>();
    times.forEach((k, v) -> {
      Invalid.requireNonBlank("costTable.layerTimes.kind", k);
      copy.put(k, List.copyOf(v));
    });
    return java.util.Collections.unmodifiableMap(copy);
  }
}
