package org.rampa.strategy;

import java.util.Objects;
import java.util.function.LongSupplier;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.TierMargins;

/**
 * One placement decision: put {@code request} on the free resources of {@code state} at the least
 * cost under {@code importance}, predicting with {@code performance}, within {@code options}' time
 * limit as measured by {@code ticker}, a nanosecond clock read like {@link System#nanoTime()} (the
 * system's, unless a test injects another). A {@link LongSupplier} keeps the API free of any
 * library's clock type.
 *
 * @since 0.1.0
 */
public record PlacementProblem(
    ServiceRequest request,
    ClusterState state,
    ImportanceModel importance,
    PerformanceModel performance,
    StrategyOptions options,
    LongSupplier ticker) {

  /** Checks that the performance model follows the options' transfer mode. */
  public PlacementProblem {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(importance, "importance");
    Objects.requireNonNull(performance, "performance");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(ticker, "ticker");
    // one up-front refusal for every strategy: planning a held id would double-book the service
    if (state.holds(request.id())) {
      throw Invalid.value("request.id", request.id(), "is already held in the cluster state (version " + state.version() + ")",
          "release it first, or give the new request another id");
    }
    // the searches cut models into stages timed layer by layer, and per-layer times are the catalog's TensorRT calibration
    if (request.model().runtime() != ServingRuntime.TENSORRT) {
      throw Invalid.value("request.model.runtime", request.model().runtime(),
          "the placement API times stages layer by layer, which only the tensorrt calibration does: another runtime's"
              + " service would be timed with two runtimes",
          "co-locate it (`colocate`, ColocationProblem: whole-model times from its runtime's tables), or serve it with tensorrt");
    }
    if (importance instanceof StaticImportance weights) {
      weights.requireNamesIn(state.cluster()); // a misspelt type would silently weigh 1
    }
    if (options.transfers() != performance.transferMode()) {
      throw Invalid.value("options.transfers", options.transfers(),
          "must equal the performance model's transfer mode (" + performance.transferMode() + ")",
          "build the model with PerformanceModel.withTransfers(options.transfers())");
    }
    // the options name the margin (sharingMargin, default with sharing on), the model applies it: they must agree
    TierMargins margins = SharingOptions.in(options).margins();
    if (!margins.equals(performance.shareMargins())) {
      throw Invalid.value("options.extra.sharingMargin", options.extra().getOrDefault("sharingMargin", SharingOptions.DEFAULT_MARGIN),
          "gives share margins " + margins.byLabel() + " but the performance model plans with " + performance.shareMargins().byLabel(),
          "build the model with .withShareMargins(SharingOptions.in(options).margins()), or use PlacementProblem.of");
    }
  }

  /** A problem timed by {@link System#nanoTime()}. */
  public PlacementProblem(ServiceRequest request, ClusterState state, ImportanceModel importance, PerformanceModel performance,
      StrategyOptions options) {
    this(request, state, importance, performance, options, System::nanoTime);
  }

  /**
   * How co-runners on shared GPUs slow each other in this problem: the default model (linear,
   * γ = 0.05; none under isolation), the one the verifying step judges every plan by. Strategies
   * that place shares ask here, so the search and the verifier agree.
   */
  public InterferenceModel interference() {
    return InterferenceModel.defaults();
  }

  /** The same problem timed by {@code newTicker}, a nanosecond clock like {@link System#nanoTime()}. */
  public PlacementProblem withTicker(LongSupplier newTicker) {
    return new PlacementProblem(request, state, importance, performance, options, newTicker);
  }

  /** The performance model {@code options} ask for: their transfer mode and, with sharing on, their share margins. */
  public static PerformanceModel performanceFor(StrategyOptions options) {
    return PerformanceModel.withTransfers(options.transfers()).withShareMargins(SharingOptions.in(options).margins());
  }

  /**
   * A problem whose performance model follows {@code options.transfers()} and, with sharing on,
   * plans shared stages under the options' margin ({@link SharingOptions#margins()}: each share
   * tier's own measured error unless {@code sharingMargin} says otherwise). The strategy and the
   * verifying step both read times from this one model, so a plan is verified under the margin it
   * was planned under.
   */
  public static PlacementProblem of(ServiceRequest request, ClusterState state, ImportanceModel importance, StrategyOptions options) {
    return new PlacementProblem(request, state, importance, performanceFor(options), options);
  }
}
