package org.rampa.heuristics.colocation;

import java.time.Duration;
import java.util.List;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;

/**
 * Example (not a test): the heuristic's GPUs (fewest GPUs) on {@link RandomMixes#pipelined} mixes,
 * rates and GPU counts times a factor, with the services' partitions and without them; prints per
 * seed both counts, then how many mixes needed fewer, more or the same GPUs with partitions and in
 * how many the plan ran stages. Usage: {@code PipelineComparison [rate factor] [mixes]}.
 */
public final class PipelineComparison {
  private PipelineComparison() {}

  public static void main(String[] args) {
    double factor = args.length > 0 ? Double.parseDouble(args[0]) : 1;
    int mixes = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    int fewer = 0;
    int more = 0;
    int same = 0;
    int staged = 0;
    for (long seed = 0; seed < mixes; seed++) {
      ColocationProblem base = RandomMixes.pipelined(seed);
      List<ColocationService> scaled = base.services().stream().map(s -> new ColocationService(s.id(), s.model(), s.batches(), s.processCounts(),
          s.rate() * factor, s.slo(), s.processMemoryBytes(), s.weight(), s.partitions())).toList();
      List<GpuPool> pools = base.pools().stream().map(p -> new GpuPool(p.type(), p.partitioning(), p.count() * (int) Math.ceil(factor) + 1)).toList();
      ColocationProblem split = new ColocationProblem(scaled, pools, base.timeModel(), base.interference(), base.sloRule(), base.admission(),
          ColocationObjective.MIN_GPUS);
      ColocationProblem whole = new ColocationProblem(scaled.stream().map(s -> s.withPartitions(List.of())).toList(), pools, base.timeModel(),
          base.interference(), base.sloRule(), base.admission(), ColocationObjective.MIN_GPUS);
      ColocationResult withPartitions = ColocationPlanners.named("heuristic").plan(split, Duration.ofSeconds(10));
      ColocationResult without = ColocationPlanners.named("heuristic").plan(whole, Duration.ofSeconds(10));
      int a = withPartitions.plan().map(ColocationPlan::gpuCount).orElse(-1);
      int b = without.plan().map(ColocationPlan::gpuCount).orElse(-1);
      if (withPartitions.plan().stream().flatMap(p -> p.gpus().stream()).flatMap(g -> g.segments().stream()).anyMatch(s -> s.stage() != null)) {
        staged++;
      }
      System.out.println("mix " + seed + ": with partitions " + a + " GPUs, whole models only " + b);
      if (a >= 0 && b >= 0) {
        if (a < b) {
          fewer++;
        } else if (a > b) {
          more++;
        } else {
          same++;
        }
      }
    }
    System.out.printf("rates x%s: with partitions fewer GPUs in %d mixes, more in %d, the same in %d; stages used in %d%n", factor, fewer, more, same, staged);
  }
}
