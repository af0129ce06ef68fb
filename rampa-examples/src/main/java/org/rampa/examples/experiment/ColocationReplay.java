package org.rampa.examples.experiment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentPerformance;
import org.rampa.perf.SloPredicate;

/**
 * Replays a co-location plan under another problem, typically a perturbed "truth" that differs from
 * the model the plan was made with in its time model or interference: every segment is re-timed by
 * {@link ColocationPerformance} for exactly its GPU's co-runners, judged by the truth's SLO rule, and
 * every service's throughput compared with its rate at the plan's claimed scale, as {@link
 * ColocationVerifier} does. Nothing here depends on the planner that made the plan.
 */
public final class ColocationReplay {
  private ColocationReplay() {}

  /**
   * What a plan does under {@code truth}: which segments break the SLO rule, which services are no
   * longer served at the claimed scale, the demand served by segments that still meet their SLO,
   * and every rule the verifier finds broken.
   *
   * @throws IllegalArgumentException when the truth's time model has no time for one of the plan's segments
   */
  public static ReplayOutcome replay(ColocationProblem truth, ColocationPlan plan) {
    int segments = 0;
    int late = 0;
    double worstSloUse = 0;
    Map<String, Double> served = new LinkedHashMap<>();
    Map<String, Double> servedInTime = new LinkedHashMap<>();
    truth.services().forEach(s -> {
      served.put(s.id(), 0.0);
      servedInTime.put(s.id(), 0.0);
    });
    for (GpuConfiguration gpu : plan.gpus()) {
      List<SegmentPerformance> perf = ColocationPerformance.evaluate(truth, gpu)
          .orElseThrow(() -> new IllegalArgumentException("the truth's time model has no batch time for a segment of " + gpu));
      for (int i = 0; i < perf.size(); i++) {
        Segment segment = gpu.segments().get(i);
        if (segment.stage() != null) {
          // a pipeline serves at its slowest stage's rate: summing segments, as below, would overcount it
          throw new IllegalArgumentException("segment " + segment + ": the replay does not handle pipelined services (stages) yet");
        }
        ColocationService service = truth.service(segment.service());
        SegmentPerformance p = perf.get(i);
        segments++;
        worstSloUse = Math.max(worstSloUse, p.batchSeconds() / truth.sloRule().budgetSeconds(service));
        served.merge(service.id(), p.throughput(), Double::sum);
        if (truth.sloRule().admits(p.batchSeconds(), service)) {
          servedInTime.merge(service.id(), p.throughput(), Double::sum);
        } else {
          late++;
        }
      }
    }
    int underserved = 0;
    double demand = 0;
    double goodput = 0;
    for (ColocationService s : truth.services()) {
      double need = s.rate() * plan.scale();
      demand += need;
      goodput += Math.min(need, servedInTime.get(s.id()));
      if (!SloPredicate.meetsRate(served.get(s.id()), need)) {
        underserved++;
      }
    }
    return new ReplayOutcome(segments, late, truth.services().size(), underserved, demand, goodput, worstSloUse,
        ColocationVerifier.check(truth, plan));
  }
}
