package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentPerformance;
import org.rampa.colocation.SloRule;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.examples.experiment.PerturbedShareTimeModel.LawFactors;
import org.rampa.examples.experiment.PerturbedShareTimeModel.Series;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.LinearInterference;
import org.rampa.perf.share.ScaledInterference;
import org.rampa.perf.share.ShareSeries;


/**
 * A two-GPU plan sized exactly to its demand (an MPS pair of VGG-16 and MobileNetV2 with γ = 0.1, and a
 * 3g instance of ResNet-50), with 10 % latency headroom on every segment, replayed under truths
 * whose effect is known in closed form.
 */
class ColocationReplayTest {

  private static final String TYPE = "A100-SXM4-80GB";
  private static final GpuConfiguration PAIR = new GpuConfiguration(TYPE,
      List.of(new Segment("b", new MpsShare(0.5, 1L << 30), 4), new Segment("c", new MpsShare(0.5, 1L << 30), 4)));
  private static final GpuConfiguration SLICE = new GpuConfiguration(TYPE, List.of(new Segment("a", new MigSlice("3g.40gb", 4), 4)));
  private static final ColocationPlan PLAN = new ColocationPlan(List.of(PAIR, SLICE), 1);

  private final ColocationProblem nominal = tightProblem();

  private static ColocationService service(String id, String model, double rate, double sloSeconds) {
    return new ColocationService(id, ModelCatalog.model(model), List.of(4), List.of(1), rate, Duration.ofNanos((long) (sloSeconds * 1e9)), 1L << 30, 1);
  }

  private static ColocationProblem problem(List<ColocationService> services) {
    return new ColocationProblem(services,
        List.of(new GpuPool(GpuCatalog.standard().type(TYPE), SharingCatalog.standard().partitioning(TYPE), 2)),
        AnalyticShareTimeModel.calibrated(), new LinearInterference(0.1), SloRule.wholeSlo(), MpsAdmission.strict(), ColocationObjective.MIN_GPUS);
  }

  /** Rates equal to what the plan serves; SLOs 10 % above each service's one segment. */
  private static ColocationProblem tightProblem() {
    ColocationProblem loose = problem(List.of(service("a", "resnet50", 1, 10), service("b", "vgg16", 1, 10), service("c", "mobilenetv2", 1, 10)));
    List<SegmentPerformance> pair = ColocationPerformance.evaluate(loose, PAIR).orElseThrow();
    SegmentPerformance slice = ColocationPerformance.evaluate(loose, SLICE).orElseThrow().get(0);
    return problem(List.of(service("a", "resnet50", slice.throughput(), 1.1 * slice.batchSeconds()),
        service("b", "vgg16", pair.get(0).throughput(), 1.1 * pair.get(0).batchSeconds()),
        service("c", "mobilenetv2", pair.get(1).throughput(), 1.1 * pair.get(1).batchSeconds())));
  }

  private ColocationProblem truth(PerturbedShareTimeModel.Laws laws, Map<Series, LawFactors> law, double interferenceScale) {
    return new ColocationProblem(nominal.services(), nominal.pools(), laws.perturbed(law),
        new ScaledInterference(nominal.interference(), Map.of(), interferenceScale), nominal.sloRule(), nominal.admission(), nominal.objective());
  }

  @Test
  void theNominalTruthKeepsAVerifiedPlan() {
    assertThat(ColocationVerifier.check(nominal, PLAN)).isEmpty();
    ReplayOutcome o = ColocationReplay.replay(truth(PerturbedShareTimeModel.over(nominal.timeModel()), Map.of(), 1), PLAN);
    assertThat(o.holds()).isTrue();
    assertThat(o.segments()).isEqualTo(3);
    assertThat(o.services()).isEqualTo(3);
    assertThat(o.lateSegments()).isZero();
    assertThat(o.underservedServices()).isZero();
    assertThat(o.servedFraction()).isCloseTo(1, within(1e-9));
    assertThat(o.worstSloUse()).isCloseTo(1 / 1.1, within(1e-6));
  }

  @Test
  void doubledInterferenceCostsThroughputButStaysWithinTheHeadroom() {
    // α goes from 1.1 to 1.2 on the MPS pair: times × 1.2 / 1.1 = 1.09, inside the 10 % headroom
    ReplayOutcome o = ColocationReplay.replay(truth(PerturbedShareTimeModel.over(nominal.timeModel()), Map.of(), 2), PLAN);
    assertThat(o.lateSegments()).isZero();
    assertThat(o.underservedServices()).as("b and c lose throughput, a on its MIG instance does not").isEqualTo(2);
    assertThat(o.holds()).isFalse();
    assertThat(o.violations()).anySatisfy(v -> assertThat(v.message()).startsWith("service b: served")).noneSatisfy(v -> assertThat(v.message()).startsWith("service a"));
    assertThat(o.servedFraction()).isLessThan(1);
  }

  @Test
  void tripledInterferenceMakesTheMpsSegmentsLateAndOnlyTheIsolatedOneServesInTime() {
    ReplayOutcome o = ColocationReplay.replay(truth(PerturbedShareTimeModel.over(nominal.timeModel()), Map.of(), 3), PLAN);
    assertThat(o.lateSegments()).isEqualTo(2);
    double sliceThroughput = ColocationPerformance.evaluate(nominal, SLICE).orElseThrow().get(0).throughput();
    double demand = nominal.services().stream().mapToDouble(ColocationService::rate).sum();
    assertThat(o.servedFraction()).isCloseTo(sliceThroughput / demand, within(1e-9));
    assertThat(o.worstSloUse()).isCloseTo(1.3 / 1.1 / 1.1, within(1e-6));
  }

  @Test
  void aSlowerLawOnOneSeriesHitsOnlyTheSegmentsOfThatSeries() {
    PerturbedShareTimeModel.Laws laws = PerturbedShareTimeModel.over(nominal.timeModel());
    String resnet = nominal.service("a").model().name();
    ReplayOutcome o = ColocationReplay.replay(truth(laws, Map.of(new Series(resnet, ShareSeries.Kind.MIG), new LawFactors(1.2, 1.2)), 1), PLAN);
    assertThat(o.lateSegments()).as("the 3g instance of a is late: its law is 20 % slower, the headroom 10 %").isEqualTo(1);
    assertThat(o.underservedServices()).isEqualTo(1);
    assertThat(o.violations()).anySatisfy(v -> assertThat(v.message()).startsWith("service a: served")).noneSatisfy(v -> assertThat(v.message()).startsWith("service b")).noneSatisfy(v -> assertThat(v.message()).startsWith("service c"));
    assertThat(o.holds()).isEqualTo(o.lateSegments() == 0 && o.underservedServices() == 0);
  }
}
