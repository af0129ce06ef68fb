package org.rampa.heuristics.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import org.rampa.domain.GpuType;
import org.rampa.domain.Plan;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.perf.StageCursor;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.TimeBudget;
import org.rampa.strategy.WarmStart;

/**
 * Minimum-cost SLO-feasible split and allocation by label setting ("dp"): a shortest path over the
 * layer boundaries {@code 0..L}, where an arc {@code i → j} is "layers [i, j) form one stage on
 * r GPUs of one type" and a label at a boundary records what the path used so far.
 *
 * <p><b>State.</b> A label holds the number of GPUs taken from every pool (free GPUs of one type on
 * one node, cheapest first: GPUs of a pool differ only in cost, so counts suffice and cheapest-first
 * is optimal), the node of the previous stage when all its GPUs sit on one node (else "spread"), the
 * stage count, the cost, the latency so far and, under serial transfers, the previous stage's busy
 * time without its outgoing transfer.
 *
 * <p><b>Transfers are charged exactly as {@code PerformanceModel.linkBetween}</b>: the node's own link
 * when the previous stage and the new one sit on that same node (both single-node), the network
 * otherwise. Tracking the previous stage's node costs labels (labels that differ only in it are
 * not compared), which is the price of not over-charging co-located stages.
 *
 * <p><b>Search.</b> Best-first on cost plus an admissible estimate of the cost still to come (a
 * relaxation solved once per decision: the least cost of covering the remaining layers in the
 * remaining stages if every GPU of a type cost as little as its cheapest free one and capacities,
 * nodes, transfers and latency did not matter; a stage needs ceil(T / max busy) replicas), with an
 * incumbent from the greedy strategy as an upper bound. A label is dropped only when another label at the same
 * boundary with the same previous-stage node is at least as good in every component (cost,
 * latency, stages, serial busy time, and GPUs taken from every pool), or when it cannot beat the
 * incumbent, or cannot meet the SLO; nodes that look alike and are untouched are tried once (by
 * symmetry). Stages with more replicas than the period needs are generated only under serial
 * transfers, where they can shorten a later stage's wait.
 *
 * <p><b>SLO.</b> Every in-search test and the final check use {@link SloPredicate}. The labels add
 * times in their own order, so at the SLO's edge a complete path may still miss it in the
 * performance model's final check: the search then goes on with the next cheapest path.
 *
 * <p><b>Shared GPUs.</b> With {@code sharing=on} the search runs over the shared-slot menu instead
 * ({@link SharedLabelSearch}: stages on shares, slowed by their GPUs' α, every complete path judged
 * by the verifier with its interference rule), with the same statuses.
 *
 * <p><b>Status.</b> OPTIMAL when the search completed without truncation; INFEASIBLE (a proof) when
 * it completed and found nothing. Three things make the search inexhaustive, as the statistics
 * {@code truncated}, {@code spreadOptionsCut} and {@code finalCheckRejected} say: the options
 * {@code maxLabels} (default 200000 labels created) or the time limit (then FEASIBLE, or
 * NO_SOLUTION_IN_TIME without a plan); {@code maxSpreadOptions} (default 64): how many ways to spread
 * one stage's replicas over several nodes are tried per stage; and a complete path the final check
 * rejected, which may have dominated one that passes (then FEASIBLE, or NO_PLAN_FOUND).
 */
final class LabelSettingStrategy implements PlacementStrategy {

  static final String NAME = "dp";

  /** The incumbent's source: greedy, whose plan bounds the search from the start. */
  private final WarmStart warmStart = WarmStart.from(new GreedyStrategy());

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    LabelSettingOptions options = LabelSettingOptions.of(problem.options());
    if (options.sharing().enabled()) {
      return new SharedLabelSearch(problem, options).run();
    }
    return new Search(problem, options, warmStart).run();
  }

  private static final class Search {
    final PlacementProblem problem;
    final LabelSettingOptions options;
    final WarmStart warmStart;
    final TimeBudget budget;
    final PlacementContext c;
    final GpuPools pools;
    final TransferMode mode;
    final int layers;
    final int batch;
    final int maxStages;
    final int maxLabels;
    final int maxSpreadOptions;
    /** The largest busy time per batch the SLO predicate admits: for replica lower bounds only. */
    final double maxBusy;
    final double latencyBudget;
    final double[][] prefixTime;
    final double[] suffixMinTime;
    final long maxTypeMemory;
    final RelaxationBound bound;
    final int maxReplicas;
    final DominanceStore store = new DominanceStore();
    final PriorityQueue<Label> queue = new PriorityQueue<>(
        Comparator.comparingDouble((Label l) -> l.priority).thenComparingInt(l -> -l.boundary));
    double upperBound = Double.POSITIVE_INFINITY;
    long created;
    long expanded;
    long spreadCut;
    boolean truncated;
    /** Complete paths the final check rejected; the cost of the first is a lower bound on the rest. */
    long finalCheckRejected;
    double rejectedBound = Double.NaN;

    Search(PlacementProblem problem, LabelSettingOptions options, WarmStart warmStart) {
      this.problem = problem;
      this.budget = TimeBudget.start(problem);
      this.options = options;
      this.warmStart = warmStart;
      this.c = new PlacementContext(problem);
      this.pools = new GpuPools(c);
      this.mode = c.performance.transferMode();
      this.layers = c.model.size();
      this.batch = c.batch;
      this.maxStages = c.request.maxStages();
      this.maxLabels = options.maxLabels();
      this.maxSpreadOptions = options.maxSpreadOptions();
      this.maxBusy = SloPredicate.maxLoadSeconds(c.request.slo());
      this.latencyBudget = SloPredicate.latencyBudgetSeconds(c.request.slo());
      int types = pools.types.size();
      prefixTime = new double[types][layers + 1];
      long maxMem = 0;
      for (int t = 0; t < types; t++) {
        double[] times = c.layerSeconds(pools.types.get(t));
        for (int l = 0; l < layers; l++) {
          prefixTime[t][l + 1] = prefixTime[t][l] + times[l];
        }
        maxMem = Math.max(maxMem, pools.types.get(t).memoryBytes());
      }
      maxTypeMemory = maxMem;
      suffixMinTime = new double[layers + 1];
      for (int l = layers - 1; l >= 0; l--) {
        double best = Double.POSITIVE_INFINITY;
        for (int t = 0; t < types; t++) {
          best = Math.min(best, prefixTime[t][l + 1] - prefixTime[t][l]);
        }
        suffixMinTime[l] = suffixMinTime[l + 1] + best;
      }
      bound = new RelaxationBound(c, pools, prefixTime, maxBusy, maxStages);
      maxReplicas = options.maxReplicas();
    }

    double costToGo(int boundary, int stagesUsed) {
      return bound.costToGo(boundary, stagesUsed);
    }

    /**
     * True when a path whose cost is at least {@code lowerBound} may still be cheaper than the
     * incumbent. Ties (up to a relative 1e-12, the rounding of summing costs in another order)
     * cannot: the incumbent is as good.
     */
    boolean beatsIncumbent(double lowerBound) {
      return upperBound == Double.POSITIVE_INFINITY || lowerBound < upperBound - 1e-12 * Math.abs(upperBound);
    }

    PlacementResult run() {
      if (c.free().isEmpty()) {
        return Results.infeasible(NAME, Infeasibility.obviousReason(c), budget, stats());
      }
      Optional<Plan> incumbent = Optional.empty();
      if (options.warmStart()) {
        incumbent = warmStart.plan(problem, budget.remaining());
        if (incumbent.isPresent()) {
          upperBound = incumbent.get().cost();
        }
      }
      Label root = new Label(0, new int[pools.pools.size()], Label.START, 0, 0, 0, 0, costToGo(0, 0), null, 0, new int[0]);
      queue.add(root);
      Plan found = null;
      while (!queue.isEmpty()) {
        Label label = queue.poll();
        if (label.dead) {
          continue;
        }
        if (label.boundary == layers) {
          Optional<Plan> plan = c.check(assignments(label), label.cost, NAME);
          if (plan.isPresent()) {
            found = plan.get();
            break;
          }
          // the labels' sums and the performance model disagree in the last bits at the SLO's edge:
          // the model decides, and the search goes on to the next cheapest path
          if (finalCheckRejected++ == 0) {
            rejectedBound = label.cost;
          }
          continue;
        }
        if (created > maxLabels || budget.expired()) {
          truncated = true;
          break;
        }
        expanded++;
        expand(label);
      }
      // a rejected path may have dominated a label that would have passed: no proof of optimality then
      boolean exact = !truncated && spreadCut == 0 && finalCheckRejected == 0;
      if (found != null) {
        return withPlan(found, exact, exact ? "least-cost plan (label setting completed)" : truncationNote());
      }
      if (incumbent.isPresent()) {
        Plan plan = c.check(PerformanceModel.assignmentsOf(incumbent.get()), incumbent.get().cost(), NAME).orElseThrow();
        return withPlan(plan, exact, exact ? "least-cost plan: no cheaper placement than the greedy incumbent exists"
            : truncationNote());
      }
      if (exact) {
        String obvious = Infeasibility.obviousReason(c);
        return Results.infeasible(NAME, obvious.isEmpty()
            ? "no placement meets the SLO: " + Infeasibility.afterSearch(c, "complete label-setting search") : obvious, budget, stats());
      }
      if (!truncated) {
        return Results.noPlanFound(NAME, truncationNote(), budget, stats());
      }
      return PlacementResult.builder().status(SolveStatus.NO_SOLUTION_IN_TIME).strategy(NAME).solveTime(budget.elapsed())
          .reason("no plan found before the search was truncated (" + truncationNote() + "); feasibility unknown")
          .statistics(stats()).build();
    }

    private String truncationNote() {
      List<String> why = new ArrayList<>();
      if (truncated) {
        why.add("label cap " + maxLabels + " or time limit " + problem.options().timeLimit() + " reached");
      }
      if (spreadCut > 0) {
        why.add(spreadCut + " stage(s) had more ways to spread replicas over nodes than maxSpreadOptions " + maxSpreadOptions);
      }
      if (finalCheckRejected > 0) {
        why.add(finalCheckRejected + " path(s) the labels admitted missed the SLO in the performance model's final check");
      }
      return "search not exhaustive: " + String.join("; ", why);
    }

    private PlacementResult withPlan(Plan plan, boolean exact, String note) {
      var b = PlacementResult.builder().status(exact ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE).plan(plan).reason(note)
          .strategy(NAME).solveTime(budget.elapsed()).statistics(stats());
      if (exact) {
        b.bound(plan.cost()).gap(0);
      } else if (!truncated && spreadCut == 0) {
        // best-first: every path left in the queue costs at least the first rejected one
        double bound = Math.min(rejectedBound, plan.cost());
        b.bound(bound).gap(plan.cost() > 0 ? (plan.cost() - bound) / plan.cost() : 0);
      }
      return b.build();
    }

    private Map<String, Double> stats() {
      return Map.of("labelsCreated", (double) created, "labelsExpanded", (double) expanded, "labelsDominated", (double) store.dominated(),
          "pools", (double) pools.pools.size(), "nodeGroups", (double) pools.nodeGroups.size(),
          "truncated", truncated ? 1.0 : 0.0, "spreadOptionsCut", (double) spreadCut, "finalCheckRejected", (double) finalCheckRejected);
    }

    private void expand(Label label) {
      int i = label.boundary;
      int types = pools.types.size();
      StageCursor stage = c.performance.cursor(c.model, batch, i, List.of());
      boolean[] touched = touchedNodes(label);
      int[] nodes = candidateNodes(touched);
      List<List<GpuPools.Pool>> spreadPools = new ArrayList<>(types);
      double[] cheapestNext = new double[types];
      for (int t = 0; t < types; t++) {
        spreadPools.add(spreadCandidates(label, t, touched));
        cheapestNext[t] = spreadPools.get(t).stream().mapToDouble(p -> p.gpus.get(label.used[p.index]).cost()).min()
            .orElse(Double.POSITIVE_INFINITY);
      }
      double network = i == 0 ? 0 : c.performance.transferSeconds(c.model, i, batch, c.cluster.network());
      boolean[] done = new boolean[types];
      int[] maxReplicasOfType = new int[types];
      for (int t = 0; t < types; t++) {
        int free = 0;
        for (GpuPools.Pool p : pools.poolsOfType.get(t)) {
          free += p.size() - label.used[p.index];
        }
        maxReplicasOfType[t] = Math.max(1, Math.min(free, maxReplicas));
      }
      for (int j = i + 1; j <= layers; j++) {
        long memory = stage.add().memoryBytes();
        if (memory > maxTypeMemory) {
          break;
        }
        if (label.stages + 1 == maxStages && j < layers) {
          continue;
        }
        boolean anyType = false;
        for (int t = 0; t < types; t++) {
          GpuType type = pools.types.get(t);
          if (done[t] || memory > type.memoryBytes()) {
            continue;
          }
          double compute = prefixTime[t][j] - prefixTime[t][i];
          if (label.latency + compute + suffixMinTime[j] > latencyBudget || !meetsPeriod(compute / maxReplicasOfType[t])) {
            done[t] = true; // both only grow with j
            continue;
          }
          anyType = true;
          if (!beatsIncumbent(label.cost + cheapestNext[t] + costToGo(j, label.stages + 1))) {
            continue;
          }
          singleNodeOptions(label, j, t, compute, network, nodes);
          spreadOptions(label, j, compute, network, spreadPools.get(t), cheapestNext[t], touched);
        }
        if (!anyType) {
          break;
        }
      }
    }

    private boolean[] touchedNodes(Label label) {
      boolean[] touched = new boolean[pools.nodeIds.size()];
      for (GpuPools.Pool p : pools.pools) {
        if (label.used[p.index] > 0) {
          touched[p.node] = true;
        }
      }
      return touched;
    }

    /** Pools of type t with free GPUs left: touched nodes first, then untouched ones group by group. */
    private List<GpuPools.Pool> spreadCandidates(Label label, int t, boolean[] touched) {
      List<GpuPools.Pool> candidates = new ArrayList<>();
      for (GpuPools.Pool p : pools.poolsOfType.get(t)) {
        if (label.used[p.index] < p.size()) {
          candidates.add(p);
        }
      }
      candidates.sort(Comparator.comparingInt((GpuPools.Pool p) -> touched[p.node] ? 0 : 1)
          .thenComparingInt(p -> pools.groupOf[p.node]).thenComparingInt(p -> p.node));
      return candidates;
    }

    /**
     * The nodes a new single-node stage may use: every node the path touched already, and the first
     * untouched node of each group of look-alike nodes (the others are interchangeable with it).
     */
    private int[] candidateNodes(boolean[] touched) {
      int[] nodes = new int[pools.nodeIds.size()];
      int count = 0;
      for (int n = 0; n < touched.length; n++) {
        if (touched[n]) {
          nodes[count++] = n;
        }
      }
      for (int[] group : pools.nodeGroups) {
        for (int n : group) {
          if (!touched[n]) {
            nodes[count++] = n;
            break;
          }
        }
      }
      return Arrays.copyOf(nodes, count);
    }

    private void singleNodeOptions(Label label, int j, int t, double compute, double network, int[] nodes) {
      for (int n : nodes) {
        int p = pools.poolOf[n][t];
        if (p < 0) {
          continue;
        }
        GpuPools.Pool pool = pools.pools.get(p);
        int remaining = pool.size() - label.used[p];
        double in = label.boundary == 0 ? 0 : label.prevNode == n
            ? c.performance.transferSeconds(c.model, label.boundary, batch, pools.nodeLinks.get(n)) : network;
        for (int r = 1; r <= remaining; r++) {
          boolean added = offer(label, j, compute, in, r, n, new int[] {p, r}, pool.cost(label.used[p], r));
          if (added && mode != TransferMode.SERIAL) {
            break; // more replicas on the same node are dominated by this option
          }
        }
      }
    }

    private void spreadOptions(Label label, int j, double compute, double network, List<GpuPools.Pool> candidates,
        double cheapestNext, boolean[] touched) {
      if (candidates.size() < 2) {
        return;
      }
      int minReplicas = Math.max(2, (int) Math.ceil(compute / maxBusy - 1e-9));
      // every further GPU costs at least cheapestNext: beyond maxTotal the stage cannot beat the incumbent
      int maxTotal = maxReplicas;
      if (cheapestNext > 0 && upperBound < Double.POSITIVE_INFINITY) {
        double room = upperBound - label.cost - costToGo(j, label.stages + 1);
        maxTotal = (int) Math.min(maxTotal, Math.floor(room / cheapestNext + 1e-9));
      }
      if (maxTotal < minReplicas) {
        return;
      }
      int[] counts = new int[candidates.size()];
      int[] budget = {maxSpreadOptions};
      enumerateSpread(label, j, compute, network, candidates, touched, 0, counts, 0, 0, minReplicas, maxTotal, budget);
      if (budget[0] < 0) {
        spreadCut++;
      }
    }

    /**
     * Every distribution of {@code minReplicas..maxTotal} replicas over two or more pools of one type,
     * choosing pools in list order. Untouched look-alike nodes are interchangeable, so within such a
     * group a node is used only if the node before it in the group is, and with no more GPUs (one
     * representative per symmetric class). Stops, flagging the truncation, after {@code budget} options.
     */
    private void enumerateSpread(Label label, int j, double compute, double network, List<GpuPools.Pool> candidates,
        boolean[] touched, int start, int[] counts, int total, int poolsUsed, int minReplicas, int maxTotal, int[] budget) {
      for (int x = start; x < candidates.size() && budget[0] >= 0; x++) {
        GpuPools.Pool p = candidates.get(x);
        int cap = Math.min(p.size() - label.used[p.index], maxTotal - total);
        boolean untouched = !touched[p.node];
        if (untouched && x > 0) {
          GpuPools.Pool before = candidates.get(x - 1);
          if (pools.groupOf[before.node] == pools.groupOf[p.node] && before.node != p.node
              && !touched[before.node]) {
            if (counts[x - 1] == 0) {
              continue; // its twin before it is unused: this choice is a permutation of one already made
            }
            cap = Math.min(cap, counts[x - 1]);
          }
        }
        for (int n = 1; n <= cap && budget[0] >= 0; n++) {
          counts[x] = n;
          int newTotal = total + n;
          if (poolsUsed + 1 >= 2 && newTotal >= minReplicas) {
            if (--budget[0] < 0) {
              break;
            }
            offerSpread(label, j, compute, network, candidates, counts, x, newTotal, poolsUsed + 1);
          }
          if (newTotal < maxTotal) {
            enumerateSpread(label, j, compute, network, candidates, touched, x + 1, counts, newTotal, poolsUsed + 1, minReplicas, maxTotal, budget);
          }
        }
        counts[x] = 0;
      }
    }

    private void offerSpread(Label label, int j, double compute, double network, List<GpuPools.Pool> candidates, int[] counts,
        int last, int total, int poolsUsed) {
      int[] take = new int[2 * poolsUsed];
      double cost = 0;
      int k = 0;
      for (int x = 0; x <= last; x++) {
        if (counts[x] > 0) {
          GpuPools.Pool p = candidates.get(x);
          take[k++] = p.index;
          take[k++] = counts[x];
          cost += p.cost(label.used[p.index], counts[x]);
        }
      }
      offer(label, j, compute, network, total, Label.SPREAD, take, cost);
    }

    /** A stage (or, overlapped, a transfer) busy {@code load} per batch keeps the throughput, by the one SLO predicate. */
    private boolean meetsPeriod(double load) {
      return SloPredicate.meetsPeriod(load, c.request.slo());
    }

    /** Creates the label of "layers [label.boundary, j) on these GPUs" if it can still lead to a plan; true if created. */
    private boolean offer(Label label, int j, double compute, double in, int replicas, int node, int[] take, double stageCost) {
      double busy = compute / replicas;
      double pending = 0;
      switch (mode) {
        case NONE:
          if (!meetsPeriod(busy)) {
            return false;
          }
          break;
        case OVERLAPPED:
          if (!meetsPeriod(busy) || !meetsPeriod(in)) {
            return false;
          }
          break;
        case SERIAL:
          pending = busy + in;
          if (!meetsPeriod(pending) || !meetsPeriod(label.pendingBusy + in)) {
            return false;
          }
          break;
        default:
          throw new IllegalStateException("unknown transfer mode " + mode);
      }
      double latency = label.latency + in + compute;
      if (latency + suffixMinTime[j] > latencyBudget) {
        return false;
      }
      double cost = label.cost + stageCost;
      double priority = cost + costToGo(j, label.stages + 1);
      if (!beatsIncumbent(priority)) {
        return false;
      }
      int[] used = label.used.clone();
      for (int k = 0; k < take.length; k += 2) {
        used[take[k]] += take[k + 1];
      }
      int prevNode = j == layers ? Label.SPREAD : node;
      Label next = new Label(j, used, prevNode, label.stages + 1, cost, latency, mode == TransferMode.SERIAL ? pending : 0,
          priority, label, label.boundary, take);
      if (!store.admit(next)) {
        return false;
      }
      queue.add(next);
      created++;
      return true;
    }

    private List<StageAssignment> assignments(Label last) {
      Deque<Label> chain = new ArrayDeque<>();
      for (Label l = last; l.parent != null; l = l.parent) {
        chain.push(l);
      }
      int[] consumed = new int[pools.pools.size()];
      List<StageAssignment> stages = new ArrayList<>();
      for (Label l : chain) {
        List<String> gpus = new ArrayList<>();
        for (int k = 0; k < l.take.length; k += 2) {
          GpuPools.Pool p = pools.pools.get(l.take[k]);
          for (int x = 0; x < l.take[k + 1]; x++) {
            gpus.add(p.gpus.get(consumed[p.index]++).id());
          }
        }
        stages.add(StageAssignment.whole(l.from, l.boundary, gpus));
      }
      return stages;
    }
  }
}
