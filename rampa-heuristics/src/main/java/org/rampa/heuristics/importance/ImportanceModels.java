package org.rampa.heuristics.importance;

import java.util.Objects;
import java.util.function.Supplier;
import org.rampa.domain.Invalid;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;

/**
 * The importance models of SPEC section 4 beyond {@link StaticImportance}: capability, scarcity ×
 * future demand, marginal acceptance loss, topology/fragmentation, and weighted combinations.
 * Every model's costs are finite and ≥ 0; each factory documents its unit. All models are
 * thread-safe; forecast-driven ones read their forecast through a {@link Supplier} at every
 * evaluation, so {@code window::snapshot} of a {@link SlidingWindowForecast} keeps them current
 * (call it from the window's own thread, or pass a fixed {@link WorkloadForecast}).
 */
public final class ImportanceModels {
  private ImportanceModels() {}

  /**
   * ½ · memory / largest memory + ½ · effective FLOP/s / largest effective FLOP/s of the cluster's
   * types: in (0, 1], state-independent.
   */
  public static ImportanceModel capability() {
    return new CapabilityImportance();
  }

  /**
   * (2b − 1) / (2B − 1), b the free same-type GPUs on the GPU's node (itself included), B the
   * most GPUs of one type on any node: in (0, 1]. See {@link FragmentationImportance}.
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
   * Expected demand for the GPU's type (GPUs per forecast arrival) over the type's free GPUs. See
   * {@link ScarcityImportance} for how demand is attributed to types.
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
   * The fraction of {@code samples} seeded forecast draws that {@code oracle} can place in the state
   * but not once the GPU is taken: in [0, 1]. See {@link MarginalAcceptanceLoss}.
   */
  public static ImportanceModel marginalAcceptanceLoss(
      Supplier<WorkloadForecast> forecast, Placeability oracle, int samples, long seed) {
    if (samples < 1) {
      throw Invalid.value("marginalAcceptanceLoss.samples", samples, "must be >= 1", "use a few hundred draws");
    }
    return new MarginalAcceptanceLoss(
        Objects.requireNonNull(forecast, "forecast"), Objects.requireNonNull(oracle, "oracle"), samples, seed);
  }

  /** Σ weight × (model's costs / their maximum over the cluster). See {@link WeightedCombination}. */
  public static CombinationBuilder combination() {
    return new CombinationBuilder();
  }
}
