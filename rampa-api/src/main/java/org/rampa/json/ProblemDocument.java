package org.rampa.json;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Map;
import org.immutables.value.Value;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ImmutableClusterState;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.MigSlice;
import org.rampa.importance.StaticImportance;
import org.rampa.strategy.StrategyOptions;

/**
 * A whole placement problem as one document: the cluster, who holds what, the request, the
 * strategy with its options, and static importance weights per GPU type (1 where absent).
 */
@Value.Immutable
@JsonSerialize(as = ImmutableProblemDocument.class)
@JsonDeserialize(as = ImmutableProblemDocument.class)
public abstract class ProblemDocument {

  public abstract Cluster cluster();

  /** Current holdings by service id (empty: a free cluster). */
  public abstract Map<String, Allocation> allocations();

  /** The MIG layout of each GPU in MIG mode (empty: none). */
  public abstract Map<String, List<MigSlice>> migLayouts();

  /** How far MPS compute shares on one GPU may sum past 1 (default 0). */
  @Value.Default
  public double mpsOvercommit() {
    return 0;
  }

  public abstract ServiceRequest request();

  @Value.Default
  public String strategy() {
    return "greedy";
  }

  @Value.Default
  public StrategyOptions options() {
    return StrategyOptions.defaults();
  }

  /** The moves the planner may make to admit the request; none unless a budget is given. */
  @Value.Default
  public MovesDocument moves() {
    return MovesDocument.none();
  }

  /** Importance weight per GPU type name; types not listed weigh 1. */
  public abstract Map<String, Double> importanceByType();

  public final ClusterState state() {
    return ImmutableClusterState.builder().cluster(cluster()).allocations(allocations()).migLayouts(migLayouts())
        .mpsOvercommit(mpsOvercommit()).build();
  }

  public final StaticImportance importance() {
    return StaticImportance.byType(importanceByType());
  }

  @Value.Check
  protected void check() {
    state(); // validates that the holdings fit the cluster
    importance().requireNamesIn(cluster());
  }

  public static ImmutableProblemDocument.Builder builder() {
    return ImmutableProblemDocument.builder();
  }
}
