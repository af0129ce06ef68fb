package org.rampa.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;

/** Seeded co-location mixes at cluster scale, shared by the timed examples of the heuristic and the exact planner. */
public final class ColocationMixes {
  private ColocationMixes() {}

  /**
   * Fewest GPUs on 1000 A100-80GB (250 nodes × 4): {@code services} services cycling through
   * ParvaGPU's measured models with scenario 6's SLOs × U(0.6, 1.4) and rates scaled so the mix
   * needs about 650–900 GPUs.
   */
  public static ColocationProblem parvaGpuAtScale(int services, long seed) {
    Random r = new Random(seed);
    ColocationProblem s6 = ParvaGpuScenarios.scenario(6, 1000, ColocationObjective.MIN_GPUS);
    List<ColocationService> out = new ArrayList<>();
    for (int i = 0; i < services; i++) {
      ColocationService base = s6.services().get(i % s6.services().size());
      // scenario 6 needs 16 GPUs for its 11 services: ×50 × 11/services makes about 800
      double rate = base.rate() * 50 * 11.0 / services * (0.5 + r.nextDouble());
      Duration slo = Duration.ofNanos((long) (base.slo().toNanos() * (0.6 + 0.8 * r.nextDouble())));
      out.add(new ColocationService(base.id() + "-" + i, base.model(), base.batches(), base.processCounts(), rate, slo, 0, 1));
    }
    return new ColocationProblem(out, s6.pools(), s6.timeModel(), s6.interference(), s6.sloRule(), s6.admission(), ColocationObjective.MIN_GPUS);
  }
}
