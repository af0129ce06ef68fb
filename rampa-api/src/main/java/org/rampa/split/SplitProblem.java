package org.rampa.split;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.rampa.domain.Invalid;
import org.rampa.perf.TransferMode;

/**
 * "Minimise the period on given devices": cut the chain of {@link #table()} into contiguous stages
 * and put stage {@code k} on a device of the ordered sequence {@link #devices()}, consecutive stages
 * on consecutive devices, so that the pipeline period is least.
 *
 * <p>Period under each transfer mode, with {@code C(a, b, d)} the compute time of layers
 * {@code [a, b)} on device {@code d} and {@code cut(c)} the table's cut time:
 * <ul>
 *   <li>NONE: {@code max_k C_k};
 *   <li>OVERLAPPED: {@code max(max_k C_k, max over the cuts between stages of cut(c))};
 *   <li>SERIAL: {@code max_k (C_k + cut(from_k) + cut(to_k))}, or with per-tensor costs in the table,
 *       {@code C_k} plus every tensor the stage sends or receives, once per tensor.
 * </ul>
 *
 * @param table layer times, cut times and memory
 * @param devices the device kind (a key of the table's layer times) of each device, in pipeline order
 * @param allowUnusedDevices false: every device runs exactly one non-empty stage; true: the stages
 *     run on a subsequence of the devices, so at most {@code devices.size()} stages
 * @param transfers how transfers enter the period
 * @param memoryCaps empty (no cap) or, per device, the most memory one stage may need on it
 */
public record SplitProblem(
    LayerCostTable table, List<String> devices, boolean allowUnusedDevices, TransferMode transfers, List<Long> memoryCaps) {

  /** The most devices a split may use: more pipeline stages than any model has layers to cut. */
  public static final int MAX_DEVICES = 1024;

  public SplitProblem {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(transfers, "transfers");
    if (devices.size() > MAX_DEVICES) { // checked before copying: nCopies(2e9, kind) is cheap, its copy is not
      throw Invalid.value("split.devices", devices.size() + " devices", "must be at most " + MAX_DEVICES);
    }
    devices = List.copyOf(devices);
    memoryCaps = List.copyOf(memoryCaps);
    if (devices.isEmpty()) {
      throw Invalid.value("split.devices", "[]", "needs at least one device");
    }
    for (int d = 0; d < devices.size(); d++) {
      if (!table.layerTimes().containsKey(devices.get(d))) {
        throw Invalid.value("split.devices[" + d + "]", devices.get(d), "the cost table has no times for this device kind",
            "known kinds: " + table.deviceKinds());
      }
    }
    if (!memoryCaps.isEmpty() && memoryCaps.size() != devices.size()) {
      throw Invalid.value("split.memoryCaps.size", memoryCaps.size(),
          "must be 0 (no cap) or the number of devices (" + devices.size() + ")");
    }
    for (int d = 0; d < memoryCaps.size(); d++) {
      Invalid.requireNonNegative("split.memoryCaps[" + d + "]", memoryCaps.get(d));
    }
  }

  /** Every device of the sequence runs one stage, in order; no memory cap. */
  public static SplitProblem onDevices(LayerCostTable table, List<String> devices, TransferMode transfers) {
    return new SplitProblem(table, devices, false, transfers, List.of());
  }

  /** {@code n} identical devices of {@code kind}: at most {@code n} stages; no memory cap. */
  public static SplitProblem identical(LayerCostTable table, String kind, int n, TransferMode transfers) {
    if (n < 1 || n > MAX_DEVICES) {
      throw Invalid.value("split.deviceCount", n, "must lie in [1, " + MAX_DEVICES + "]");
    }
    return new SplitProblem(table, Collections.nCopies(n, kind), true, transfers, List.of());
  }

  /** This problem with the same memory cap on every device. */
  public SplitProblem withMemoryCap(long bytes) {
    List<Long> caps = new ArrayList<>(Collections.nCopies(devices.size(), bytes));
    return new SplitProblem(table, devices, allowUnusedDevices, transfers, caps);
  }

  /** This problem with one memory cap per device. */
  public SplitProblem withMemoryCaps(List<Long> caps) {
    return new SplitProblem(table, devices, allowUnusedDevices, transfers, caps);
  }

  public SplitProblem allowingUnusedDevices(boolean allow) {
    return new SplitProblem(table, devices, allow, transfers, memoryCaps);
  }
}
