package org.rampa.heuristics.importance;

import java.util.Objects;
import java.util.function.Supplier;
import org.rampa.domain.Invalid;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;

/**
 * The importance models of docs/SPEC.md section 4 beyond {@link StaticImportance}: capability, scarcity ×
 * future demand, marginal acceptance loss, topology/fragmentation, and weighted combinations.
 * Every model's costs are finite and ≥ 0; each factory documents its unit. All models are
 * thread-safe; forecast-driven ones read their forecast through a {@link Supplier} at every
 * evaluation, so {@code window::snapshot} of a {@link SlidingWindowForecast} keeps them current
 * (call it from the window's own thread, or pass a fixed {@link WorkloadForecast}). A part of a
 * GPU costs the GPU's importance × the placement's share equivalent; the forecast-driven models
 * (scarcity, marginal acceptance loss) add, times the same importance, the free capacity the part
 * strands for the forecast's demand ({@link org.rampa.importance.ShareCost}); see
 * {@link org.rampa.importance.GpuCosts#of(org.rampa.domain.ClusterState, String, org.rampa.domain.share.Placement)}.
 *
 * @since 0.1.0
 */
public final class ImportanceModels {
  /** The most forecast draws {@link #marginalAcceptanceLoss(Supplier, Placeability, int, long)} accepts. */
  public static final int MAX_SAMPLES = 1_000_000;

  private ImportanceModels() {}

  /**
   * ½ · memory / largest memory + ½ · effective FLOP/s / largest effective FLOP/s of the cluster's
   * types: in (0, 1], state-independent.
   */
  public static ImportanceModel capability() {
    return new CapabilityImportance();
  }

  /**
   * Topology / fragmentation: (2b − 1) / (2B − 1), b the whole free GPUs of the GPU's type on its
   * node (itself included), B the most GPUs of one type on any node; in (0, 1]. It is the loss in
   * Σ b² (one block of 4 free GPUs on a fast link is worth more than two blocks of 2) when the GPU
   * is taken, so a fully free node's GPU costs more than a fragmented node's.
   */
  public static ImportanceModel fragmentation() {
    return new FragmentationImportance();
  }

  /** Scarcity × future demand with a fixed forecast and the default performance model. */
  public static ImportanceModel scarcity(WorkloadForecast forecast) {
    Objects.requireNonNull(forecast, "forecast");
    return scarcity(() -> forecast, PerformanceModel.defaults());
  }

  /**
   * Scarcity × future demand: D(t) / max(1, free(t)) for a GPU of type t, where free(t) is the
   * type's free capacity in GPU-equivalents (whole free GPUs, plus compute left on MPS GPUs and unheld
   * MIG instances) and D(t) = Σ_c p_c / Σ_t' 1/n(c, t') over the types t that can serve
   * forecast class c, n(c, t) being the fewest GPUs of type t that serve c alone. Each class's
   * arrivals are attributed to the types that can serve it in proportion to 1/n (how much of a
   * service one GPU provides), and each share uses n GPUs. Unit: demanded GPUs per forecast arrival
   * per free GPU; ≥ 0. The demand table is cached per forecast snapshot; free counts are read from
   * every evaluated state.
   */
  public static ImportanceModel scarcity(Supplier<WorkloadForecast> forecast, PerformanceModel performance) {
    return new ScarcityImportance(
        Objects.requireNonNull(forecast, "forecast"), new SingleTypeLayouts(Objects.requireNonNull(performance, "performance")));
  }

  /** Marginal acceptance loss with a fixed forecast, the default oracle, 256 draws, seed 1. */
  public static ImportanceModel marginalAcceptanceLoss(WorkloadForecast forecast) {
    Objects.requireNonNull(forecast, "forecast");
    return marginalAcceptanceLoss(() -> forecast, Placeability.singleType(PerformanceModel.defaults()), 256, 1);
  }

  /**
   * Marginal acceptance loss: the fraction of {@code samples} forecast draws (seeded, the same for
   * every GPU) that {@code oracle} can place in the state but not once the GPU is taken; in [0, 1],
   * the expected number of forecast arrivals per arrival lost by taking the GPU. The oracle is asked
   * about one GPU per class of interchangeable GPUs (same type and free share and memory, on nodes
   * with the same link and free-GPU profile), and results are cached across equivalent states.
   */
  public static ImportanceModel marginalAcceptanceLoss(
      Supplier<WorkloadForecast> forecast, Placeability oracle, int samples, long seed) {
    // every evaluation after a forecast change draws them all: beyond a million, one call takes seconds
    if (samples < 1 || samples > MAX_SAMPLES) {
      throw Invalid.value("marginalAcceptanceLoss.samples", samples, "must lie in [1, " + MAX_SAMPLES + "]", "use a few hundred draws");
    }
    return new MarginalAcceptanceLoss(
        Objects.requireNonNull(forecast, "forecast"), Objects.requireNonNull(oracle, "oracle"), samples, seed);
  }

  /**
   * Σ weight × (model's cost / the model's largest cost over the cluster's GPUs in the evaluated
   * state); a model that is 0 everywhere contributes 0. Linear in the weights.
   */
  public static CombinationBuilder combination() {
    return new CombinationBuilder();
  }
}
