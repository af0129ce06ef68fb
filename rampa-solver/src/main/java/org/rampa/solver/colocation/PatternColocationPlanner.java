package org.rampa.solver.colocation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.SegmentMenu;
import org.rampa.strategy.SolveStatus;
import org.rampa.solver.backend.GlopBackend;
import org.rampa.solver.backend.MilpBackend;
import org.rampa.solver.backend.ScipBackend;
import org.rampa.solver.backend.SolveWatchdog;
import org.rampa.solver.backend.OrToolsNatives;
import org.rampa.strategy.support.TimeBudget;

/**
 * The exact co-location planner (docs/SHARING.md section 5). Its programme is the pattern MILP (a column is
 * one legal configuration of one GPU with its per-service throughput) in aggregated form ({@link
 * ColocationSpace}): integer counts of GPUs per MIG layout type, integer counts of instances of
 * each profile given to each service (at most as many as the chosen layouts provide), GPUs given
 * whole to a service, GPUs running one of the undominated MPS pairs or triples, and for pipelined services
 * ({@link StagedChoices}) a 0/1 choice per partition of one vector of per-stage batch-time caps
 * with instance and whole-GPU counts per stage, the service served what its weakest stage serves
 * (a service may run whole and in stages at once, as the verifier allows). MIG instances are
 * isolated, so every solution of the aggregated programme decodes into per-GPU configurations and
 * every configuration the planner searches is one of its solutions: the programme is exact, not a
 * restriction to generated columns. Without pipelined services its LP relaxation equals the pattern
 * LP's (for a fixed layout the instance-assignment polytope is integral); with them it also relaxes
 * the 0/1 choices, so it stays a bound of the whole space. It is solved on GLOP for the reported LP bound; the
 * integer programme is solved on SCIP (one thread, relative gap 0 for GPU counts, 10⁻⁶ for a scale or
 * weighted throughput, SCIP's own settings rather than exact's tuning). Both go through exact's
 * backends ({@link GlopBackend}, {@link ScipBackend}), so natives, time limits and the
 * {@link SolveWatchdog} work as for exact. OPTIMAL and INFEASIBLE are
 * SCIP's proofs over the whole searched space, and a run cut short by the limit is FEASIBLE with
 * SCIP's dual bound (never weaker than the LP's).
 *
 * <p>Searched: whole GPUs; MIG layouts with one service per instance (MPS processes inside an
 * instance included); NPU template layouts with one service per template (templates are hard
 * partitions, aggregated like MIG instances); two MPS tenants splitting a GPU as (s, 1 − s), s ∈ {0.2, 0.4, 0.5, 0.6, 0.8},
 * with α for exactly that pair (skipped, and said so, past 50 000 pair evaluations per pool); three
 * MPS tenants splitting it in thirds or as an order of (0.2, 0.2, 0.6) or (0.2, 0.4, 0.4), α for
 * exactly that triple (skipped apart, and said so, past 50 000 triple evaluations per pool); the
 * warm start's own MPS configurations; pipeline stages on whole GPUs, MIG instances and NPU
 * templates (up to 2 000 cap vectors per partition, else the partition is skipped and said so). Not
 * searched: four or more MPS tenants on one GPU; pipeline stages on MPS shares; time-sharing.
 */
public final class PatternColocationPlanner implements ColocationPlanner {

  /**
   * What the LP relaxation may take, however much of the call's limit is left: a safety net for a
   * simplex that should never need it, not a limit.
   */
  private static final Duration LP_LIMIT = Duration.ofHours(1);

  /** Relative gap within which a largest-scale or weighted-throughput plan counts as optimal. */
  private static final double OPTIMALITY_TOLERANCE = 1e-6;

  private final Optional<ColocationPlanner> warmStart;

  /** The integer model alone, no integer start from outside. */
  public PatternColocationPlanner() {
    this.warmStart = Optional.empty();
  }

  /**
   * Warm-started: the plan of {@code warmStart} (a heuristic's, checked by the verifier) is SCIP's
   * start, so the answer is never worse than that plan. The bound and the status do not depend on it.
   */
  public PatternColocationPlanner(ColocationPlanner warmStart) {
    this.warmStart = Optional.of(warmStart);
  }

  @Override
  public String name() {
    return "exact";
  }

  @Override
  public ColocationResult plan(ColocationProblem original, Duration timeLimit) {
    ColocationProblem problem = original.memoized();
    long deadline = System.nanoTime() + timeLimit.toNanos();
    OrToolsNatives.ensureLoaded();
    Optional<ColocationPlan> warm = warmStart.flatMap(w -> w.plan(problem, Duration.ofNanos(timeLimit.toNanos() / 10)).plan())
        .filter(p -> ColocationVerifier.check(problem, p).isEmpty());
    ColocationSpace space = new ColocationSpace(problem, SegmentMenu.of(problem));
    List<ColocationColumn> extra = new ArrayList<>();
    Optional<Map<String, Integer>> hint = warm.flatMap(p -> PatternProgram.counts(space, p, extra));
    ColocationObjective objective = problem.objective();
    String searched = (space.searchesAllMpsPairs() ? "" : ", MPS pairs not searched (too many)")
        + (space.searchesAllMpsTriples() ? "" : ", MPS triples not searched (too many)")
        + (space.skippedPartitions().isEmpty() ? "" : ", pipeline partitions not searched (more than " + StagedChoices.CHOICES_PER_PARTITION_LIMIT
            + " cap vectors): " + space.skippedPartitions());

    MilpBackend.Solution relaxed = relaxation(problem, space, extra);
    if (relaxed.outcome() == MilpBackend.Outcome.INFEASIBLE) {
      MilpBackend.Solution scale = relaxation(problem.withObjective(ColocationObjective.MAX_SCALE), space, extra);
      return ColocationResult.noPlan(SolveStatus.INFEASIBLE, "exact: even the LP relaxation serves at most "
          + (scale.outcome() == MilpBackend.Outcome.OPTIMAL ? scale.objective() : 0)
          + " of the demand on the cluster's " + problem.pools().stream().map(p -> p.count() + " × " + p.type().name()).toList()
          + searched + "; maybe add GPUs or relax the SLOs");
    }
    // the last 5 % of the limit decode and verify the plan (a 1000-GPU plan takes a few hundred ms under load)
    IntegerOutcome integer = integerSolve(problem, space, extra, hint, deadline - timeLimit.toNanos() / 20);
    if (integer.infeasible) {
      return ColocationResult.noPlan(SolveStatus.INFEASIBLE, "exact: SCIP proved that no plan over the searched configurations"
          + searched + " serves the demand on the cluster's " + problem.pools().stream().map(p -> p.count() + " × " + p.type().name()).toList()
          + " (LP relaxation " + relaxed.objective() + "); maybe add GPUs or relax the SLOs");
    }
    boolean minimise = objective == ColocationObjective.MIN_GPUS;
    double dual = Double.isNaN(integer.bound) ? relaxed.objective()
        : minimise ? Math.max(relaxed.objective(), integer.bound) : Math.min(relaxed.objective(), integer.bound);
    OptionalDouble bound = OptionalDouble.of(minimise ? Math.ceil(dual - 1e-6) : dual);
    Optional<ColocationPlan> plan = integer.plan.or(() -> warm);
    String searchedSpace = "exact: aggregated model over " + space.pools().stream().mapToInt(p -> p.layouts().size()).sum() + " layout types, "
        + space.pools().stream().mapToInt(p -> p.mpsPairs() == null ? 0 : p.mpsPairs().size()).sum() + " MPS pairs, "
        + space.pools().stream().mapToInt(p -> p.mpsTriples() == null ? 0 : p.mpsTriples().size()).sum() + " MPS triples, "
        + space.stagedChoices().size() + " staged choices of pipeline partitions" + searched
        + ", LP relaxation " + relaxed.objective();
    if (plan.isEmpty()) {
      return new ColocationResult(System.nanoTime() >= deadline ? SolveStatus.NO_SOLUTION_IN_TIME : SolveStatus.NO_PLAN_FOUND,
          Optional.empty(), OptionalDouble.empty(), bound, searchedSpace + "; SCIP found no integer plan in time");
    }
    double value = ColocationVerifier.objectiveValue(problem, plan.get());
    boolean optimal = integer.optimal && integer.plan.isPresent()
        || (minimise ? value <= bound.getAsDouble() + 1e-9 : value >= bound.getAsDouble() * (1 - OPTIMALITY_TOLERANCE));
    if (optimal) {
      bound = OptionalDouble.of(minimise ? Math.min(bound.getAsDouble(), value) : Math.max(bound.getAsDouble(), value));
    }
    String reason = searchedSpace + (integer.optimal ? ", SCIP proved the plan optimal"
        : Double.isNaN(integer.bound) ? ", SCIP found no plan by the limit" : ", SCIP stopped at the limit with dual bound " + integer.bound)
        + (integer.plan.isEmpty() ? " (the plan is the warm start's)" : "");
    return new ColocationResult(optimal ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, plan, OptionalDouble.of(value), bound, reason);
  }

  /**
   * The LP relaxation on GLOP: OPTIMAL with its optimum, or INFEASIBLE (fewest GPUs only: the other
   * objectives always have x = 0). It gets {@link #LP_LIMIT}, not what is left of the call: its
   * optimum is the bound reported even when the call's limit has passed (on E2's 1000-GPU clusters
   * under load it has, and the answer is then the warm start's plan with this bound).
   */
  private static MilpBackend.Solution relaxation(ColocationProblem problem, ColocationSpace space, List<ColocationColumn> extra) {
    PatternProgram m = new PatternProgram(problem, space, extra, false);
    MilpBackend.Solution solution = new GlopBackend(SolveWatchdog.shared()).solve(m.program,
        settings(System.nanoTime() + LP_LIMIT.toNanos(), 0, Optional.empty()));
    if (solution.outcome() != MilpBackend.Outcome.OPTIMAL && solution.outcome() != MilpBackend.Outcome.INFEASIBLE) {
      throw new IllegalStateException("GLOP ended with " + solution.outcome() + " on the co-location LP relaxation, which is "
          + "bounded by the GPU counts, within " + LP_LIMIT);
    }
    return solution;
  }

  /** A solve until {@code deadline} (System.nanoTime), from SCIP's own settings: the co-location programme is not exact's. */
  private static MilpBackend.Settings settings(long deadline, double relativeGap, Optional<double[]> hint) {
    return new MilpBackend.Settings(TimeBudget.start(System::nanoTime, Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))),
        relativeGap, 0, hint, "", MilpBackend.Tuning.SOLVER_DEFAULTS);
  }

  private record IntegerOutcome(Optional<ColocationPlan> plan, boolean optimal, boolean infeasible, double bound) {}

  /** The integer model on SCIP until {@code deadline}: its plan, if any, whether SCIP proved it optimal or the model infeasible, and its dual bound. */
  private static IntegerOutcome integerSolve(ColocationProblem problem, ColocationSpace space, List<ColocationColumn> extra,
      Optional<Map<String, Integer>> hint, long deadline) {
    long left = (deadline - System.nanoTime()) / 1_000_000;
    if (left <= 0) {
      return new IntegerOutcome(Optional.empty(), false, false, Double.NaN);
    }
    PatternProgram m = new PatternProgram(problem, space, extra, true);
    // a start for the count variables (by name), the others left open: SCIP completes it
    Optional<double[]> start = hint.map(h -> {
      double[] values = new double[m.program.variableCount()];
      Arrays.fill(values, Double.NaN);
      m.byName.forEach((name, v) -> values[v] = h.getOrDefault(name, 0));
      return values;
    });
    // GPU counts are integral, so SCIP can close the gap exactly; a scale or weighted throughput is
    // continuous, so it stops at the tolerance at which the planner calls a plan optimal
    double gap = problem.objective() == ColocationObjective.MIN_GPUS ? 0 : OPTIMALITY_TOLERANCE;
    MilpBackend.Solution solution = new ScipBackend(SolveWatchdog.shared()).solve(m.program, settings(deadline, gap, start));
    return switch (solution.outcome()) {
      case OPTIMAL, FEASIBLE -> new IntegerOutcome(Optional.of(m.decode(solution.values())),
          solution.outcome() == MilpBackend.Outcome.OPTIMAL, false, solution.bestBound());
      case INFEASIBLE -> new IntegerOutcome(Optional.empty(), false, true, Double.NaN);
      case UNKNOWN -> new IntegerOutcome(Optional.empty(), false, false, Double.NaN);
    };
  }

}
