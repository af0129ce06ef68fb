package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SloRule;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.perf.share.LinearInterference;

/**
 * The enumeration of one device's co-locations against a brute force that knows nothing of its
 * pruning: every ordered list of up to {@link OneGpuShareExperiment#DEFAULT_MAX_SEGMENTS} (service, part)
 * segments at one batch, judged by {@link ColocationVerifier} alone, the scale read from the
 * verifier's throughputs (the verifier alone decides what fits: shares summing to at most the
 * card, template cores, memory). Pairs on MuxServe's MPS table (contended, γ = 0.10) and on the NPU's
 * templates (isolated), at batches 1 and 16.
 */
class OneGpuShareExperimentTest {

  @Test
  void muxServePairsMatchABruteForceOverEveryMpsConfiguration() {
    checkAgainstBruteForce(OneGpuShareExperiment.muxServe(), 0.10);
  }

  @Test
  void npuPairsMatchABruteForceOverEveryTemplateConfiguration() {
    checkAgainstBruteForce(OneGpuShareExperiment.npu(), 0.10);
  }

  @Test
  void templatesDoNotFeelInterferenceAndCuMasksDo() {
    List<List<String>> mix = List.of(List.of("resnet50", "bert-large"));
    List<Double> gammas = List.of(0.0, 0.10);
    List<OneGpuExperiment.Row> npu = new OneGpuShareExperiment(OneGpuShareExperiment.npu(), 5, OneGpuShareExperiment.DEFAULT_MAX_SEGMENTS).run(mix, gammas, r -> {});
    List<OneGpuExperiment.Row> mi100 = new OneGpuShareExperiment(OneGpuShareExperiment.mi100(), 5, OneGpuShareExperiment.DEFAULT_MAX_SEGMENTS).run(mix, gammas, r -> {});
    int perGamma = OneGpuShareExperiment.rowsPerMix();
    int slower = 0;
    for (int i = 0; i < perGamma; i++) {
      assertThat(npu.get(i).gain()).as(npu.get(i).toString()).isEqualTo(npu.get(i + perGamma).gain());
      if (mi100.get(i).gain().isPresent()) {
        assertThat(mi100.get(i + perGamma).gain().orElseThrow()).isLessThanOrEqualTo(mi100.get(i).gain().orElseThrow());
        slower += mi100.get(i + perGamma).gain().orElseThrow() < mi100.get(i).gain().orElseThrow() ? 1 : 0;
      }
    }
    assertThat(slower).isGreaterThan(0);
    assertThat(npu).allSatisfy(r -> assertThat(r.tier()).isEqualTo("modelled"));
  }

  private static void checkAgainstBruteForce(OneGpuShareExperiment.Device device, double gamma) {
    OneGpuShareExperiment experiment = new OneGpuShareExperiment(device, 5, OneGpuShareExperiment.DEFAULT_MAX_SEGMENTS);
    List<String> mix = experiment.mixes().get(0);
    List<OneGpuExperiment.Row> rows = experiment.run(List.of(mix), List.of(gamma), r -> {});
    int compared = 0;
    for (OneGpuExperiment.Row row : rows) {
      if (!row.regime().equals("batch") || (row.batch() != 1 && row.batch() != 16)) {
        continue;
      }
      assertThat(row.exclusive()).as(row.toString()).hasSize(2);
      List<ColocationService> services = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        String id = mix.get(i);
        OneGpuShareExperiment.ShareService s = device.services().stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
        services.add(new ColocationService(s.id(), s.model(), List.of(row.batch()), List.of(1), row.exclusive().get(i) / 2, Duration.ofHours(1),
            s.memoryAtBatch(row.batch()), 1));
      }
      ColocationProblem problem = new ColocationProblem(services, List.of(device.pool()), device.timeModel(), new LinearInterference(gamma),
          SloRule.wholeSlo(), MpsAdmission.strict(), ColocationObjective.MAX_SCALE).memoized();
      double best = bruteForce(problem, device, row.batch(), new ArrayList<>());
      if (best == 0) {
        assertThat(row.gain()).as(row.toString()).isEmpty();
      } else {
        assertThat(row.gain()).as(row.toString()).isPresent();
        assertThat(row.gain().orElseThrow()).as(row.toString()).isCloseTo(best, within(best * 1e-9));
      }
      compared++;
    }
    assertThat(compared).isEqualTo(2);
  }

  /** The largest scale over every ordered list of segments extending {@code segments} that the verifier accepts. */
  private static double bruteForce(ColocationProblem problem, OneGpuShareExperiment.Device device, int batch, List<Segment> segments) {
    double best = 0;
    if (!segments.isEmpty()) {
      ColocationPlan plan = new ColocationPlan(List.of(new GpuConfiguration(device.type().name(), List.copyOf(segments))), 0);
      if (!ColocationVerifier.check(problem, plan).isEmpty()) {
        // at scale 0 every refusal (shares or cores over the card, memory, SLO) stays when segments are added
        return 0;
      }
      Map<String, Double> served = ColocationVerifier.throughputs(problem, plan);
      best = problem.services().stream().mapToDouble(s -> served.get(s.id()) / s.rate()).min().orElseThrow();
    }
    if (segments.size() == OneGpuShareExperiment.DEFAULT_MAX_SEGMENTS) {
      return best;
    }
    for (ColocationService s : problem.services()) {
      for (OneGpuShareExperiment.Part p : device.parts()) {
        segments.add(new Segment(s.id(), p.placement().apply(s.processMemoryBytes()), batch));
        best = Math.max(best, bruteForce(problem, device, batch, segments));
        segments.remove(segments.size() - 1);
      }
    }
    return best;
  }
}
