package org.rampa.examples.learned;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.domain.Invalid;
import org.rampa.examples.experiment.ClusterMixes;

/**
 * Random demand mixes for training and evaluating the learned policy. A seed gives one mix;
 * training and the evaluations draw from disjoint seed streams.
 *
 * <ul>
 *   <li>{@link Family#PARVAGPU}: around ParvaGPU's six published scenarios (measured times, MIG and
 *       MIG + MPS only): one scenario, each service kept with probability 3/4 (at least two), each
 *       rate scaled by a log-normal factor (σ = 0.5).</li>
 *   <li>{@link Family#E2}: E2's generated mixes ({@link ClusterMixes} on the {@code a100} preset:
 *       ParvaGPU's models and LLaMA-7B, MPS shares priced) on a cluster scaled down to the training
 *       size, with E2's density of services per GPU (100–400 per 1000 GPUs), a batch cap 2^k with k
 *       uniform in 0 … 7 and a small-batch share uniform in [0, 1] — E2's regimes and those between.</li>
 *   <li>{@link Family#BOTH}: each mix from either family with probability 1/2.</li>
 * </ul>
 */
public final class DemandMixes {
  private static final double KEEP = 0.75;
  private static final double RATE_SIGMA = 0.5;
  /** E2's services per GPU: 100 to 400 services on 1000 accelerators. */
  private static final double E2_MIN_DENSITY = 0.1;
  private static final double E2_MAX_DENSITY = 0.4;
  /** E2's batch caps are powers of two up to ParvaGPU's 128 = 2^7. */
  private static final int E2_LARGEST_CAP_EXPONENT = 7;

  /** The scenarios as read once (their measured tables take a while to load); immutable values. */
  private static final Map<List<Integer>, ColocationProblem> BASES = new ConcurrentHashMap<>();

  /** Which mixes training draws. */
  public enum Family {
    PARVAGPU, E2, BOTH;

    /** The family named {@code name} (lower case, as on the command line). */
    public static Family of(String name) {
      for (Family f : values()) {
        if (f.label().equals(name)) {
          return f;
        }
      }
      throw Invalid.value("--mix-family", name, "is not a mix family", "use parvagpu, e2 or both");
    }

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private DemandMixes() {}

  /** A mix of {@code family} on {@code gpus} GPUs. */
  public static ColocationProblem draw(Family family, SplittableRandom random, int gpus) {
    return switch (family) {
      case PARVAGPU -> draw(random, gpus);
      case E2 -> e2(random, gpus);
      case BOTH -> random.nextBoolean() ? draw(random, gpus) : e2(random, gpus);
    };
  }

  /** A mix around one of ParvaGPU's scenarios ({@link Family#PARVAGPU}). */
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

  /** An E2 mix on the {@code a100} preset scaled down to {@code gpus} A100s ({@link Family#E2}). */
  public static ColocationProblem e2(SplittableRandom random, int gpus) {
    int fewest = Math.max(2, (int) Math.round(E2_MIN_DENSITY * gpus));
    int most = Math.max(fewest, (int) Math.round(E2_MAX_DENSITY * gpus));
    int services = fewest + random.nextInt(most - fewest + 1);
    int cap = 1 << random.nextInt(E2_LARGEST_CAP_EXPONENT + 1);
    double smallShare = random.nextDouble();
    ColocationProblem mix = ClusterMixes.problem(ClusterMixes.Cluster.A100, services, smallShare, cap, random.nextLong(),
        ColocationObjective.MAX_SCALE);
    List<GpuPool> pools = mix.pools().stream().map(p -> new GpuPool(p.type(), p.partitioning(), gpus)).toList();
    return new ColocationProblem(mix.services(), pools, mix.timeModel(), mix.interference(), mix.sloRule(), mix.admission(), mix.objective());
  }
}
