package org.rampa;

import java.time.Duration;
import java.util.Objects;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.ImmutableStrategyOptions;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;
import org.rampa.verify.PlanVerifier;

/**
 * The fluent entry point: describe the cluster, its state, the strategy and its settings, then
 * {@link Planner#place} a request. Every setter validates at once and returns a new planner, so a
 * configured planner can be shared between threads and reused for many requests.
 *
 * <pre>{@code
 * PlacementResult result = Rampa.on(cluster)
 *     .state(currentState)
 *     .strategy("exact")
 *     .importance(StaticImportance.byType(Map.of("A100-SXM4-80GB", 4.0)))
 *     .timeLimit(Duration.ofSeconds(2))
 *     .place(request);
 * }</pre>
 */
public final class Rampa {
  private Rampa() {}

  /** A planner for {@code cluster}, starting from the empty state. */
  public static Planner on(Cluster cluster) {
    Objects.requireNonNull(cluster, "cluster");
    return new Planner(ClusterState.empty(cluster), null, StaticImportance.uniform(), StrategyOptions.defaults());
  }

  /** A planner for the cluster of {@code state}, starting from that state. */
  public static Planner on(ClusterState state) {
    return on(Objects.requireNonNull(state, "state").cluster()).state(state);
  }

  /** An immutable, validated planner configuration. */
  public static final class Planner {
    private final ClusterState state;
    private final PlacementStrategy strategy;
    private final ImportanceModel importance;
    private final StrategyOptions options;

    private Planner(ClusterState state, PlacementStrategy strategy, ImportanceModel importance, StrategyOptions options) {
      this.state = state;
      this.strategy = strategy;
      this.importance = importance;
      this.options = options;
    }

    public Planner state(ClusterState newState) {
      Objects.requireNonNull(newState, "state");
      if (!newState.cluster().equals(state.cluster())) {
        throw Invalid.value("state.cluster", "(another cluster)", "the state must describe this planner's cluster",
            "start from Rampa.on(state) instead");
      }
      return new Planner(newState, strategy, importance, options);
    }

    /** Selects a strategy by name from those on the classpath (see {@link Strategies#available()}). */
    public Planner strategy(String name) {
      return strategy(Strategies.named(Objects.requireNonNull(name, "strategy")));
    }

    public Planner strategy(PlacementStrategy newStrategy) {
      return new Planner(state, Objects.requireNonNull(newStrategy, "strategy"), importance, options);
    }

    /** Static weights must name this planner's GPU types and GPUs (see {@link StaticImportance#requireNamesIn}). */
    public Planner importance(ImportanceModel newImportance) {
      Objects.requireNonNull(newImportance, "importance");
      if (newImportance instanceof StaticImportance weights) {
        weights.requireNamesIn(state.cluster());
      }
      return new Planner(state, strategy, newImportance, options);
    }

    public Planner timeLimit(Duration limit) {
      return options(ImmutableStrategyOptions.copyOf(options).withTimeLimit(limit));
    }

    public Planner relativeGap(double gap) {
      return options(ImmutableStrategyOptions.copyOf(options).withRelativeGap(gap));
    }

    public Planner seed(long seed) {
      return options(ImmutableStrategyOptions.copyOf(options).withSeed(seed));
    }

    public Planner transfers(TransferMode mode) {
      return options(ImmutableStrategyOptions.copyOf(options).withTransfers(mode));
    }

    public Planner options(StrategyOptions newOptions) {
      return new Planner(state, strategy, importance, Objects.requireNonNull(newOptions, "options"));
    }

    public ClusterState state() {
      return state;
    }

    /** The problem this planner would hand its strategy for {@code request}. */
    public PlacementProblem problem(ServiceRequest request) {
      return PlacementProblem.of(request, state, importance, options);
    }

    /**
     * Plans {@code request} on this planner's state. The returned plan has passed the
     * {@link PlanVerifier}; a strategy that returns anything else has a bug, reported as
     * {@link org.rampa.verify.PlanRejectedException}.
     */
    public PlacementResult place(ServiceRequest request) {
      if (strategy == null) {
        throw Invalid.value("strategy", "(none)", "choose a strategy before planning",
            "call .strategy(\"greedy\") or .strategy(\"exact\"); available: " + Strategies.available());
      }
      PlacementProblem problem = problem(request);
      PlacementResult result = strategy.place(problem);
      result.plan().ifPresent(p -> new PlanVerifier(problem.performance()).verify(request, p, state).orThrow(request.id()));
      return result;
    }
  }
}
