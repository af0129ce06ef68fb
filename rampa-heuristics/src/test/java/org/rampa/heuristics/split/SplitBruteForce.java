package org.rampa.heuristics.split;

import java.util.ArrayList;
import java.util.List;
import org.rampa.perf.TransferMode;
import org.rampa.split.SplitProblem;
import org.rampa.split.SplitStage;
import org.rampa.split.TensorTransfer;

/** Oracle for the splitting problem: every assignment of contiguous ranges to the devices, in order. */
public final class SplitBruteForce {
  private SplitBruteForce() {}

  /** Tries every assignment of contiguous ranges to devices. */
  public static double period(SplitProblem p) {
    return enumerate(p, 0, 0, new ArrayList<>());
  }

  private static double enumerate(SplitProblem p, int device, int layer, List<SplitStage> stages) {
    int layers = p.table().layers();
    if (device == p.devices().size()) {
      return layer == layers ? periodOf(p, stages) : Double.POSITIVE_INFINITY;
    }
    double best = Double.POSITIVE_INFINITY;
    if (p.allowUnusedDevices()) {
      best = enumerate(p, device + 1, layer, stages);
    }
    for (int to = layer + 1; to <= layers; to++) {
      if (!p.memoryCaps().isEmpty() && memory(p, layer, to) > p.memoryCaps().get(device)) {
        continue;
      }
      stages.add(new SplitStage(layer, to, device, 0));
      best = Math.min(best, enumerate(p, device + 1, to, stages));
      stages.remove(stages.size() - 1);
    }
    return best;
  }

  private static long memory(SplitProblem p, int from, int to) {
    long sum = 0;
    long peak = 0;
    for (int l = from; l < to; l++) {
      sum += p.table().layerMemoryBytes().get(l);
      peak = Math.max(peak, p.table().layerPeakMemoryBytes().get(l));
    }
    return sum + peak;
  }

  /** The period of a given split, straight from the definition in SplitProblem's documentation. */
  public static double periodOf(SplitProblem p, List<SplitStage> stages) {
    double period = 0;
    for (SplitStage s : stages) {
      double compute = 0;
      for (int l = s.from(); l < s.to(); l++) {
        compute += p.table().timesOf(p.devices().get(s.device())).get(l);
      }
      double load = compute;
      if (p.transfers() == TransferMode.OVERLAPPED) {
        period = Math.max(period, p.table().cutTimes().get(s.from()));
      } else if (p.transfers() == TransferMode.SERIAL) {
        if (p.table().tensors().isEmpty()) {
          load += p.table().cutTimes().get(s.from()) + p.table().cutTimes().get(s.to());
        } else {
          for (TensorTransfer t : p.table().tensors()) {
            boolean producedInside = t.producer() >= s.from() && t.producer() < s.to();
            boolean readInside = t.consumers().stream().anyMatch(c -> c >= s.from() && c < s.to());
            boolean readOutside = t.consumers().stream().anyMatch(c -> c < s.from() || c >= s.to());
            if (producedInside && readOutside || !producedInside && readInside) {
              load += t.cost();
            }
          }
        }
      }
      period = Math.max(period, load);
    }
    return period;
  }
}
