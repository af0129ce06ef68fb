package org.rampa;

import java.time.Duration;
import java.util.Objects;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Invalid;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.ImmutableStrategyOptions;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;
import org.rampa.verify.PlanVerifier;
import org.rampa.verify.Verification;

/**
 * The fluent entry point: describe the cluster, its state, the strategy and its settings, then
 * {@link Placer#place} a request. Every setter validates at once and returns a new placer, so a
 * configured placer can be shared between threads and reused for many requests.
 *
 * <pre>{@code
 * PlacementResult result = Rampa.on(cluster)
 *     .state(currentState)
 *     .strategy("exact")
 *     .importance(StaticImportance.byType(Map.of("A100-SXM4-80GB", 4.0)))
 *     .timeLimit(Duration.ofSeconds(2))
 *     .place(request);
 * }</pre>
 *
 * @since 0.1.0
 */
public final class Rampa {
  private Rampa() {}

  /** A placer for {@code cluster}, starting from the empty state. */
  public static Placer on(Cluster cluster) {
    Objects.requireNonNull(cluster, "cluster");
    return new Placer(ClusterState.empty(cluster), null, StaticImportance.uniform(), StrategyOptions.defaults());
  }

  /** A placer for the cluster of {@code state}, starting from that state. */
  public static Placer on(ClusterState state) {
    return on(Objects.requireNonNull(state, "state").cluster()).state(state);
  }

  /**
   * An immutable, validated placement configuration: it places requests ({@link #place}) and checks
   * plans ({@link #verify}). Named apart from {@link org.rampa.colocation.ColocationPlanner}, the
   * co-location algorithm interface.
   */
  public static final class Placer {
    private final ClusterState state;
    private final PlacementStrategy strategy;
    private final ImportanceModel importance;
    private final StrategyOptions options;

    private Placer(ClusterState state, PlacementStrategy strategy, ImportanceModel importance, StrategyOptions options) {
      this.state = state;
      this.strategy = strategy;
      this.importance = importance;
      this.options = options;
    }

    /**
     * The same placer planning against {@code newState}, a state of this placer's cluster (after
     * other services were admitted or released, say) or of a part of it: some of its nodes and GPUs,
     * as they are here (a mover probes the few GPUs its moves changed that way).
     *
     * @throws IllegalArgumentException when {@code newState} describes another cluster
     */
    public Placer state(ClusterState newState) {
      Objects.requireNonNull(newState, "state");
      if (!newState.cluster().equals(state.cluster()) && !isPart(newState.cluster(), state.cluster())) {
        throw Invalid.value("state.cluster", "(another cluster)", "the state must describe this placer's cluster or a part of it",
            "start from Rampa.on(state) instead");
      }
      return new Placer(newState, strategy, importance, options);
    }

    /** Whether {@code part} has {@code whole}'s types and network and only nodes and GPUs of {@code whole}, unchanged. */
    private static boolean isPart(Cluster part, Cluster whole) {
      if (!part.gpuTypes().equals(whole.gpuTypes()) || !part.network().equals(whole.network())) {
        return false;
      }
      for (Node n : part.nodes()) {
        if (whole.gpusOn(n.id()).isEmpty() || !whole.node(n.id()).equals(n)) {
          return false;
        }
      }
      for (Gpu g : part.gpus()) {
        if (!whole.hasGpu(g.id()) || !whole.gpu(g.id()).equals(g)) {
          return false;
        }
      }
      return true;
    }

    /** Selects a strategy by name from those on the classpath (see {@link Strategies#available()}). */
    public Placer strategy(String name) {
      return strategy(Strategies.named(Objects.requireNonNull(name, "strategy")));
    }

    /** Uses {@code newStrategy}, wrapped in the one verifying step ({@link Strategies#verified}). */
    public Placer strategy(PlacementStrategy newStrategy) {
      return new Placer(state, Strategies.verified(newStrategy), importance, options);
    }

    /** Weighs the free GPUs with {@code newImportance}: plans spend the least important first. Static weights
     * must name this placer's GPU types and GPUs (see {@link StaticImportance#requireNamesIn}). */
    public Placer importance(ImportanceModel newImportance) {
      Objects.requireNonNull(newImportance, "importance");
      if (newImportance instanceof StaticImportance weights) {
        weights.requireNamesIn(state.cluster());
      }
      return new Placer(state, strategy, newImportance, options);
    }

    /** Bounds each {@link #place} call's search by {@code limit} (see {@link StrategyOptions#timeLimit()}). */
    public Placer timeLimit(Duration limit) {
      return options(ImmutableStrategyOptions.copyOf(options).withTimeLimit(limit));
    }

    /** Lets exact strategies stop at this relative gap to the proven bound (see {@link StrategyOptions#relativeGap()}). */
    public Placer relativeGap(double gap) {
      return options(ImmutableStrategyOptions.copyOf(options).withRelativeGap(gap));
    }

    /** Seeds every random choice of the strategy, so the same inputs give the same plan. */
    public Placer seed(long seed) {
      return options(ImmutableStrategyOptions.copyOf(options).withSeed(seed));
    }

    /** How inter-stage transfers enter the period; the performance model follows it. */
    public Placer transfers(TransferMode mode) {
      return options(ImmutableStrategyOptions.copyOf(options).withTransfers(mode));
    }

    /**
     * Lets a strategy that supports sharing ("greedy" and the others whose options accept
     * {@link SharingOptions#KEYS}) place stages on shared GPUs as {@code sharing} says; off by
     * default. Plans on shared GPUs are verified with the interference rule; commit them through
     * {@link org.rampa.domain.ClusterStateHolder#admit}.
     */
    public Placer sharing(SharingOptions sharing) {
      return options(Objects.requireNonNull(sharing, "sharing").applyTo(options));
    }

    /** Replaces every strategy option at once (time limit, gap, seed, transfers and the rest). */
    public Placer options(StrategyOptions newOptions) {
      return new Placer(state, strategy, importance, Objects.requireNonNull(newOptions, "options"));
    }

    /** The state this placer plans against. */
    public ClusterState state() {
      return state;
    }

    /** The problem this placer would hand its strategy for {@code request}. */
    public PlacementProblem problem(ServiceRequest request) {
      return PlacementProblem.of(request, state, importance, options);
    }

    /**
     * Plans {@code request} on this placer's state. The strategy is wrapped in the one verifying
     * step ({@link Strategies#verified}), so the returned plan has passed the
     * {@link org.rampa.verify.PlanVerifier}; a strategy that returns anything else has a bug,
     * reported as {@link org.rampa.verify.PlanRejectedException}; for a plan on shared GPUs that
     * includes the interference rule (no service on them may miss its SLO with its new co-runners),
     * and the result names the MPS fault domains it joins. The state is not changed: commit the plan
     * through a {@link org.rampa.domain.ClusterStateHolder} — a plan on shared GPUs through
     * {@link org.rampa.domain.ClusterStateHolder#admit}, which keeps its request for later admissions.
     *
     * @throws IllegalArgumentException when no strategy was chosen, or the request is invalid
     */
    public PlacementResult place(ServiceRequest request) {
      if (strategy == null) {
        throw Invalid.value("strategy", "(none)", "choose a strategy before planning",
            "call .strategy(\"greedy\") or .strategy(\"exact\"); available: " + Strategies.available());
      }
      return strategy.place(problem(request));
    }

    /**
     * Re-checks {@code plan}, made by anyone, for {@code request} on this placer's state with the
     * one {@link PlanVerifier} every strategy's plan goes through: coverage of the model, GPUs of the
     * cluster, free resources and the sharing rules (MIG layouts, MPS sums, templates), memory, the
     * SLO, the plan's stated predictions, and every incumbent's SLO under interference on the GPUs
     * the plan shares. Every violation is listed; no strategy is needed.
     */
    public Verification verify(ServiceRequest request, Plan plan) {
      Invalid.requireNonNull("request", request);
      Invalid.requireNonNull("plan", plan);
      PlacementProblem p = problem(request);
      return new PlanVerifier(p.performance(), p.interference()).verify(request, plan, state);
    }
  }
}
