package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.GpuType;
import org.rampa.domain.Plan;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.TimeBudget;

/**
 * Greedy importance-weighted allocation ("greedy"), no solver. It considers GPU sets in increasing
 * order of their cost and returns the first (cheapest) one on which the min-period split meets the
 * SLO, so stages and replicas are added only when the SLO needs them:
 *
 * <ul>
 *   <li>homogeneous pipelines: {@code k} stages of {@code r} replicas of one GPU type, on the
 *       {@code k·r} cheapest free GPUs of that type;
 *   <li>the {@code m} cheapest free GPUs of any types, one stage each, for {@code m ≤ K_max}.
 * </ul>
 *
 * Candidates that provably miss the SLO (the whole model on one type is slower than the latency
 * bound, or perfect balancing over {@code k·r} GPUs still misses the throughput, or the weights do
 * not fit in {@code k} GPUs) are skipped before any split. Among GPUs of equal cost it prefers nodes
 * with more free GPUs of the type when transfers matter (fewer nodes, so consecutive stages share a
 * node link), and fuller nodes otherwise (less fragmentation); the chosen GPUs are ordered node by
 * node so that consecutive stages sit on one node whenever they can.
 *
 * <p>Options ({@code StrategyOptions.extra}): {@code maxReplicas} (default 64) replicas per stage,
 * {@code maxCandidates} (default 256) splits tried before giving up.
 */
final class GreedyStrategy implements PlacementStrategy {

  static final String NAME = "greedy";

  @Override
  public String name() {
    return NAME;
  }

  /** The first {@code gpus} GPUs of {@code pool} in groups of {@code replicas}, costing {@code costBound} at most. */
  private record Candidate(double costBound, int gpus, List<FreeGpu> pool, int replicas) {
    List<List<FreeGpu>> groups() {
      return groupsOf(pool.subList(0, gpus), replicas);
    }
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    TimeBudget budget = TimeBudget.start(problem);
    GreedyOptions options = GreedyOptions.of(problem.options());
    PlacementContext c = new PlacementContext(problem);
    String obvious = Infeasibility.obviousReason(c);
    if (!obvious.isEmpty()) {
      return Results.infeasible(NAME, obvious, budget, Map.of("candidatesEvaluated", 0.0));
    }
    int maxReplicas = options.maxReplicas();
    int maxCandidates = options.maxCandidates();
    boolean transfersMatter = transfersMatter(c);
    Map<String, Integer> freePerNodeAndType = new HashMap<>();
    for (FreeGpu g : c.free) {
      freePerNodeAndType.merge(g.node() + "\u0000" + g.typeName(), 1, Integer::sum);
    }
    // sort keys computed once: cost, then (co-location or best fit) the node's free GPUs of the type
    int[] nodeRank = new int[c.cluster.gpus().size()];
    int[] nodeOrder = new int[c.cluster.gpus().size()];
    Map<String, Integer> nodeIndex = new HashMap<>();
    for (FreeGpu g : c.free) {
      int free = freePerNodeAndType.get(g.node() + "\u0000" + g.typeName());
      nodeRank[g.clusterIndex()] = transfersMatter ? -free : free;
      nodeOrder[g.clusterIndex()] = nodeIndex.computeIfAbsent(g.node(), k -> nodeIndex.size());
    }
    // equal cost: GPUs of one node together (fuller or emptier nodes first), then cluster order
    Comparator<FreeGpu> order = Comparator.comparingDouble(FreeGpu::cost)
        .thenComparingInt(g -> nodeRank[g.clusterIndex()])
        .thenComparingInt(g -> nodeOrder[g.clusterIndex()])
        .thenComparingInt(FreeGpu::clusterIndex);

    List<Candidate> candidates = new ArrayList<>();
    Map<String, List<FreeGpu>> byType = new LinkedHashMap<>();
    for (FreeGpu g : c.free) {
      byType.computeIfAbsent(g.typeName(), k -> new ArrayList<>()).add(g);
    }
    int layers = c.model.size();
    int maxStages = Math.min(c.request.maxStages(), layers);
    double latencyBudget = SloPredicate.latencyBudgetSeconds(c.request.slo());
    long weights = weightsOnly(c);
    for (List<FreeGpu> gpus : byType.values()) {
      gpus.sort(order);
      GpuType type = gpus.get(0).type();
      double modelSeconds = c.modelSeconds(type);
      if (modelSeconds > latencyBudget) {
        continue; // a request passes every layer on this type: no split can meet the latency bound
      }
      double[] prefixCost = new double[gpus.size() + 1];
      for (int i = 0; i < gpus.size(); i++) {
        prefixCost[i + 1] = prefixCost[i] + gpus.get(i).cost();
      }
      for (int k = 1; k <= maxStages; k++) {
        if (weights > (long) k * type.memoryBytes()) {
          continue; // the weights cannot fit in k GPUs of this type
        }
        for (int r = 1; r <= maxReplicas && k * r <= gpus.size(); r++) {
          if (!SloPredicate.meetsPeriod(modelSeconds / (k * r), c.request.slo())) {
            continue; // even a perfect balance over k·r GPUs is too slow
          }
          candidates.add(new Candidate(prefixCost[k * r], k * r, gpus, r));
        }
      }
    }
    List<FreeGpu> all = new ArrayList<>(c.free);
    all.sort(order);
    double prefix = 0;
    for (int m = 1; m <= Math.min(maxStages, all.size()); m++) {
      prefix += all.get(m - 1).cost();
      candidates.add(new Candidate(prefix, m, all, 1));
    }
    candidates.sort(Comparator.comparingDouble(Candidate::costBound).thenComparingInt(Candidate::gpus));

    Plan best = null;
    int tried = 0;
    for (Candidate cand : candidates) {
      if (best != null && cand.costBound() >= best.cost()) {
        break;
      }
      if (tried++ >= maxCandidates) {
        break;
      }
      Optional<Plan> plan = c.evaluate(cand.groups(), SplitRule.MIN_PERIOD, true, NAME);
      if (plan.isPresent() && (best == null || plan.get().cost() < best.cost())) {
        best = plan.get();
      }
    }
    Map<String, Double> stats = Map.of(
        "candidates", (double) candidates.size(), "candidatesEvaluated", (double) c.candidatesEvaluated());
    if (best == null) {
      return Results.noPlanFound(NAME, Infeasibility.afterSearch(c, candidates.size() + " GPU sets by increasing cost"), budget, stats);
    }
    return Results.withPlan(NAME, SolveStatus.FEASIBLE, best, "cheapest GPU set on which the min-period split meets the SLO", budget, stats);
  }

  private static long weightsOnly(PlacementContext c) {
    long sum = 0;
    for (int l = 0; l < c.model.size(); l++) {
      sum += c.model.layer(l).weightBytes();
    }
    return sum;
  }

  /**
   * Transfers matter when they are charged at all and shipping the largest cut over the network
   * takes more than 1 % of the model's compute on the slowest free GPU type.
   */
  private static boolean transfersMatter(PlacementContext c) {
    if (c.performance.transferMode() == TransferMode.NONE || c.model.size() < 2) {
      return false;
    }
    long largestCut = 0;
    for (int cut = 1; cut < c.model.size(); cut++) {
      largestCut = Math.max(largestCut, c.model.cutBytesPerSample(cut));
    }
    double transfer = c.cluster.network().transferSeconds((double) c.batch * largestCut);
    double compute = 0;
    for (FreeGpu g : c.free) {
      compute = Math.max(compute, c.modelSeconds(g.type()));
    }
    return transfer > 0.01 * compute;
  }

  /**
   * Orders {@code gpus} node by node (nodes in order of their first GPU) and cuts them into groups
   * of {@code r}, so consecutive stages share nodes. Groups of mixed types (only possible with
   * {@code r = 1}) are fine: one GPU is one type.
   */
  static List<List<FreeGpu>> groupsOf(List<FreeGpu> gpus, int r) {
    Map<String, List<FreeGpu>> byNode = new LinkedHashMap<>();
    for (FreeGpu g : gpus) {
      byNode.computeIfAbsent(g.node(), k -> new ArrayList<>()).add(g);
    }
    List<FreeGpu> ordered = new ArrayList<>(gpus.size());
    byNode.values().forEach(ordered::addAll);
    List<List<FreeGpu>> groups = new ArrayList<>();
    for (int i = 0; i + r <= ordered.size(); i += r) {
      groups.add(List.copyOf(ordered.subList(i, i + r)));
    }
    return groups;
  }
}
