package org.rampa.perf.share;

import java.util.List;
import java.util.Map;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;

/**
 * gpu-lets' regression on L2 and DRAM utilisation of the stage and of its co-runners, each scaled
 * by its share: {@code α = c0 + c1·s·u2 + c2·Σ s_j·u2_j + c3·s·ud + c4·Σ s_j·ud_j}, clipped to
 * {@code α ≥ 1}. The coefficients differ completely between devices, so they are given per GPU
 * type, and a type without its own coefficients is an error, never a silent reuse.
 *
 * @param coefficients per GPU type name
 */
public record GpuLetsInterference(Map<String, Coefficients> coefficients) implements InterferenceModel {

  /** gpu-lets' published fit on an RTX 2080 Ti (measured by gpu-lets, casys-kaist/glet). */
  public static final Coefficients RTX_2080_TI = new Coefficients(0.89537, 0.11291, 0.71596, 0.35487, 0.08820);

  /** gpu-lets' published fit on an RTX 3080 (docs/SHARING.md section 3). */
  public static final Coefficients RTX_3080 = new Coefficients(1.0184, -0.1799, 0.0384, 0.1255, -0.0565);

  /** c0 constant; c1, c2 L2 self and others; c3, c4 DRAM self and others. */
  public record Coefficients(double c0, double c1, double c2, double c3, double c4) {
    public Coefficients {
      for (double c : new double[] {c0, c1, c2, c3, c4}) {
        if (!Double.isFinite(c)) {
          throw Invalid.value("gpuLets.coefficients", c, "must be finite");
        }
      }
    }
  }

  public GpuLetsInterference {
    coefficients = Map.copyOf(coefficients);
  }

  @Override
  public double slowdown(GpuType type, CoRunner self, List<CoRunner> others) {
    if (self.placement().isolated()) {
      return 1;
    }
    Coefficients c = coefficients.get(type.name());
    if (c == null) {
      throw Invalid.value("gpuLets.coefficients", type.name(), "has no gpu-lets coefficients",
          "calibrate them on this device; coefficients of another GPU do not transfer (known: " + coefficients.keySet() + ")");
    }
    double l2Others = 0;
    double dramOthers = 0;
    for (CoRunner o : InterferenceModel.contending(self, others)) {
      l2Others += o.share() * o.l2Utilisation();
      dramOthers += o.share() * o.dramUtilisation();
    }
    double alpha = c.c0() + c.c1() * self.share() * self.l2Utilisation() + c.c2() * l2Others
        + c.c3() * self.share() * self.dramUtilisation() + c.c4() * dramOthers;
    return Math.max(1, alpha);
  }
}
