package org.rampa.solver.colocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.PipelinePartition;
import org.rampa.colocation.PipelineStage;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;

/**
 * The pipelined half of the exact planner's space: the ways each service's precomputed pipeline
 * partitions ({@link ColocationService#partitions()}) can run, as {@link Choice}s.
 *
 * <p>Why caps make it exact: the verifier lets a partition serve the throughput of its slowest
 * stage and requires the sum over its stages of the slowest segment's batch time to meet the SLO
 * rule. In any plan, the partition's stages have slowest batch times (t₀ … t_K−1) whose sum the
 * rule admits; every segment of stage k runs an option no slower than t_k, and replacing it by the
 * highest-throughput option on the same part within t_k keeps the sum admitted and serves no less.
 * So a plan needs only, per used partition, one vector of caps and per part the best option
 * within its cap. Only caps at which some part's best option changes matter (the batch times of
 * each part's (time, throughput) Pareto front), and only vectors where no cap can rise to its next
 * level while the sum stays admitted (any other vector's options are matched or beaten by one of
 * those). The sum is judged by the verifier's own predicate ({@code SloRule.admits}) on batch times
 * the verifier's own performance model computes, so no numeric tolerance of the solver enters it.
 */
public final class StagedChoices {

  /** Cap vectors per partition beyond which the partition is not searched (and the answer says so). */
  static final int CHOICES_PER_PARTITION_LIMIT = 2_000;

  /**
   * One way to run partition {@code partition} of service {@code service} (indexes into the
   * problem's services and the service's partitions): per stage a cap on its slowest batch time;
   * per pool, stage and usable profile of the pool ({@link ColocationSpace.Pool#profiles}) the
   * highest-throughput stage option within the stage's cap ({@code mig}, null: none), per pool and
   * stage the whole-GPU one ({@code whole}, null: none); {@code capacity}, an upper bound on what
   * the choice can serve on the cluster (its weakest stage given every GPU of every pool).
   */
  record Choice(int service, int partition, double[] caps, SegmentOption[][][] mig, SegmentOption[][] whole, double capacity) {

    int stages() {
      return caps.length;
    }
  }

  /** The choices, and the partitions left out for having too many ({@code "service partition [cuts]"}). */
  record Space(List<Choice> choices, List<String> skipped) {}

  private StagedChoices() {}

  /**
   * True when some stage of some partition of {@code service} has an option on {@code profile} of
   * pool {@code gpuType}: the profile is then usable even where the whole model fits no instance.
   */
  static boolean runsStageOn(SegmentMenu menu, String gpuType, ColocationService service, String profile) {
    for (int p = 0; p < service.partitions().size(); p++) {
      for (int k = 0; k < service.partitions().get(p).stages(); k++) {
        if (menu.stageOptions(gpuType, service.id(), new PipelineStage(p, k)).stream().anyMatch(o -> profile.equals(o.profile()))) {
          return true;
        }
      }
    }
    return false;
  }

  static Space of(ColocationProblem problem, SegmentMenu menu, List<ColocationSpace.Pool> pools) {
    List<Choice> choices = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (int i = 0; i < problem.services().size(); i++) {
      ColocationService s = problem.services().get(i);
      for (int p = 0; p < s.partitions().size(); p++) {
        PipelinePartition partition = s.partitions().get(p);
        List<List<SegmentOption>> options = new ArrayList<>();
        Map<SegmentOption, Double> times = new HashMap<>();
        List<double[]> levels = new ArrayList<>();
        for (int k = 0; k < partition.stages(); k++) {
          List<SegmentOption> stage = new ArrayList<>();
          for (ColocationSpace.Pool pool : pools) {
            stage.addAll(menu.stageOptions(pool.pool().type().name(), s.id(), new PipelineStage(p, k)));
          }
          stage.forEach(o -> times.put(o, batchSeconds(problem, o)));
          options.add(stage);
          levels.add(frontTimes(stage, times));
        }
        List<double[]> vectors = new ArrayList<>();
        if (levels.stream().allMatch(l -> l.length > 0) && !maximalCaps(problem, s, levels, 0, new double[levels.size()], 0, vectors)) {
          skipped.add(s.id() + " partition " + p + " " + partition.cuts());
          continue;
        }
        for (double[] caps : vectors) {
          choices.add(choice(pools, i, p, caps, options, times));
        }
      }
    }
    return new Space(List.copyOf(choices), List.copyOf(skipped));
  }

  /** The batch time alone on its part, as the verifier's performance model computes it. */
  private static double batchSeconds(ColocationProblem problem, SegmentOption o) {
    int start = o.whole() || o.template() ? 0 : problem.pool(o.gpuType()).partitioning().requireMig().profile(o.profile()).allowedStarts().get(0);
    return ColocationPerformance.evaluate(problem, new GpuConfiguration(o.gpuType(), List.of(o.at(start)))).orElseThrow().get(0).batchSeconds();
  }

  /** The batch times at which some (pool, part)'s best option changes: the times of each part's (time, throughput) Pareto front. */
  private static double[] frontTimes(List<SegmentOption> stage, Map<SegmentOption, Double> times) {
    TreeSet<Double> out = new TreeSet<>();
    stage.stream().map(o -> o.gpuType() + "|" + o.profile()).distinct().forEach(part -> {
      List<SegmentOption> onPart = stage.stream().filter(o -> part.equals(o.gpuType() + "|" + o.profile()))
          .sorted(Comparator.comparingDouble((SegmentOption o) -> times.get(o)).thenComparing(SegmentOption::throughput, Comparator.reverseOrder()))
          .toList();
      double best = 0;
      for (SegmentOption o : onPart) {
        if (o.throughput() > best) {
          best = o.throughput();
          out.add(times.get(o));
        }
      }
    });
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * Adds to {@code out} every cap vector (one level per stage) whose sum, taken in stage order as
   * the verifier takes it, the SLO rule admits and where no cap can rise to its next level; false
   * when there are more than {@link #CHOICES_PER_PARTITION_LIMIT}.
   */
  private static boolean maximalCaps(ColocationProblem problem, ColocationService s, List<double[]> levels, int k, double[] caps, double sum,
      List<double[]> out) {
    double[] mine = levels.get(k);
    if (k == levels.size() - 1) {
      int top = -1;
      for (int l = 0; l < mine.length && problem.sloRule().admits(sum + mine[l], s); l++) {
        top = l;
      }
      if (top < 0) {
        return true;
      }
      caps[k] = mine[top];
      if (raisable(problem, s, levels, caps)) {
        return true;
      }
      out.add(caps.clone());
      return out.size() <= CHOICES_PER_PARTITION_LIMIT;
    }
    for (double t : mine) {
      double least = sum + t;
      for (int j = k + 1; j < levels.size(); j++) {
        least += levels.get(j)[0];
      }
      if (!problem.sloRule().admits(least, s)) {
        break; // levels ascend: every higher level leaves even less
      }
      caps[k] = t;
      if (!maximalCaps(problem, s, levels, k + 1, caps, sum + t, out)) {
        return false;
      }
    }
    return true;
  }

  /** True when some cap of {@code caps} can rise to its stage's next level with the sum still admitted. */
  private static boolean raisable(ColocationProblem problem, ColocationService s, List<double[]> levels, double[] caps) {
    for (int k = 0; k < caps.length - 1; k++) {
      double[] mine = levels.get(k);
      int at = java.util.Arrays.binarySearch(mine, caps[k]);
      if (at + 1 < mine.length) {
        double sum = 0;
        for (int j = 0; j < caps.length; j++) {
          sum += j == k ? mine[at + 1] : caps[j];
        }
        if (problem.sloRule().admits(sum, s)) {
          return true;
        }
      }
    }
    return false;
  }

  private static Choice choice(List<ColocationSpace.Pool> pools, int service, int partition, double[] caps, List<List<SegmentOption>> options,
      Map<SegmentOption, Double> times) {
    int stages = caps.length;
    SegmentOption[][][] mig = new SegmentOption[pools.size()][stages][];
    SegmentOption[][] whole = new SegmentOption[pools.size()][stages];
    double capacity = Double.POSITIVE_INFINITY;
    for (int k = 0; k < stages; k++) {
      double stageCapacity = 0;
      for (ColocationSpace.Pool pool : pools) {
        int q = pool.index();
        String type = pool.pool().type().name();
        mig[q][k] = new SegmentOption[pool.profiles().size()];
        for (SegmentOption o : options.get(k)) { // best throughput first (the menu's order)
          if (!o.gpuType().equals(type) || times.get(o) > caps[k]) {
            continue;
          }
          if (o.whole()) {
            whole[q][k] = whole[q][k] == null ? o : whole[q][k];
          } else if (mig[q][k][pool.profileIndex(o.profile())] == null) {
            mig[q][k][pool.profileIndex(o.profile())] = o;
          }
        }
        double perGpu = whole[q][k] == null ? 0 : whole[q][k].throughput();
        for (ColocationSpace.LayoutType t : pool.layouts()) {
          double sum = 0;
          for (int p = 0; p < t.counts().length; p++) {
            sum += mig[q][k][p] == null ? 0 : t.counts()[p] * mig[q][k][p].throughput();
          }
          perGpu = Math.max(perGpu, sum);
        }
        stageCapacity += perGpu * pool.pool().count();
      }
      capacity = Math.min(capacity, stageCapacity);
    }
    return new Choice(service, partition, caps, mig, whole, capacity);
  }
}
