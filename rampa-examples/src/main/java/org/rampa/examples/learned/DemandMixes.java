package org.rampa.examples.learned;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ParvaGpuScenarios;

/**
 * Random demand mixes for training and evaluating the learned policy, drawn around ParvaGPU's six
 * published scenarios (the only mixes with measured times): one scenario, each service kept with
 * probability 3/4 (at least two), each rate scaled by a log-normal factor (σ = 0.5). A seed gives
 * one mix; training and the evaluation draw from disjoint seed streams.
 */
public final class DemandMixes {
  private static final double KEEP = 0.75;
  private static final double RATE_SIGMA = 0.5;

  /** The scenarios as read once (their measured tables take a while to load); immutable values. */
  private static final Map<List<Integer>, ColocationProblem> BASES = new ConcurrentHashMap<>();

  private DemandMixes() {}

  public static ColocationProblem draw(SplittableRandom random, int gpus) {
    int scenario = 1 + random.nextInt(ParvaGpuScenarios.SCENARIOS);
    ColocationProblem base = BASES.computeIfAbsent(List.of(scenario, gpus),
        key -> ParvaGpuScenarios.scenario(scenario, gpus, ColocationObjective.MAX_SCALE));
    List<ColocationService> kept = new ArrayList<>();
    List<ColocationService> dropped = new ArrayList<>();
    for (ColocationService s : base.services()) {
      double factor = Math.exp(RATE_SIGMA * random.nextGaussian());
      ColocationService scaled = new ColocationService(s.id(), s.model(), s.batches(), s.processCounts(), s.rate() * factor, s.slo(),
          s.processMemoryBytes(), s.weight());
      (random.nextDouble() < KEEP ? kept : dropped).add(scaled);
    }
    while (kept.size() < 2 && !dropped.isEmpty()) {
      kept.add(dropped.remove(0));
    }
    return new ColocationProblem(kept, base.pools(), base.timeModel(), base.interference(), base.sloRule(), base.admission(),
        base.objective());
  }
}
