package org.rampa.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.verify.Violation;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.MigSliceMps;


/** ParvaGPU's six published deployments, judged by the verifier under ParvaGPU's SLO rule on its measured tables. */
class ParvaGpuDeploymentsTest {

  private static ColocationProblem scenario(int k) {
    return ParvaGpuScenarios.scenario(k, 1000, ColocationObjective.MIN_GPUS);
  }

  @Test
  void publishedGpuCountsAreTwoThreeFiveSevenThirteenSixteen() {
    assertThat(List.of(1, 2, 3, 4, 5, 6).stream().map(ParvaGpuDeployments::gpuCount).toList()).containsExactly(2, 3, 5, 7, 13, 16);
    assertThat(ParvaGpuDeployments.plan(6).gpuCount()).isEqualTo(16);
    assertThat(ParvaGpuDeployments.rows(6)).hasSize(62);
  }

  @Test
  void publishedPlacementColumnIsNotAlwaysALegalLayoutButItsInstancesFit() {
    assertThat(ParvaGpuDeployments.illegalPublishedLayouts(1)).isEmpty();
    // scenario 3, GPU 0/1: 3g at 4, 2g at 2, 1g at 0 and 1g at 6, which overlaps the 3g's memory slices 4 … 7
    assertThat(ParvaGpuDeployments.illegalPublishedLayouts(3)).containsExactly("0/1", "0/2", "0/3", "0/4");
    assertThat(ColocationVerifier.check(scenario(3), ParvaGpuDeployments.asPublished(3)))
        .anySatisfy(v -> {
          assertThat(v.kind()).isEqualTo(org.rampa.verify.Violation.Kind.MIG_LAYOUT);
          assertThat(v.message()).startsWith("gpu 1 ").contains("illegal MIG layout");
        })
        .noneSatisfy(v -> assertThat(v.message()).startsWith("gpu 0 "));
    for (int k = 1; k <= ParvaGpuScenarios.SCENARIOS; k++) {
      assertThat(ColocationVerifier.check(scenario(k), ParvaGpuDeployments.plan(k))).as("scenario " + k).noneSatisfy(v -> assertThat(v.message()).contains("MIG layout"));
    }
  }

  @Test
  void allSixPassTheVerifierWithTheProcessCountsTheTablesMeasure() {
    for (int k = 1; k <= ParvaGpuScenarios.SCENARIOS; k++) {
      assertThat(ColocationVerifier.check(scenario(k), ParvaGpuDeployments.plan(k))).as("scenario " + k).isEmpty();
    }
  }

  @Test
  void theReadmesThreeProcessesRefuseTheDeploymentsThatRunFour() {
    for (int k = 1; k <= 5; k++) {
      ColocationProblem s = scenario(k);
      List<ColocationService> readme = s.services().stream().map(v -> ParvaGpuScenarios.service(v.id(), v.batches(), v.rate(), v.slo())).toList();
      List<Violation> violations = ColocationVerifier.check(ParvaGpuScenarios.problem(readme, 1000, ColocationObjective.MIN_GPUS), ParvaGpuDeployments.plan(k));
      boolean moreThanThree = ParvaGpuDeployments.rows(k).stream().anyMatch(r -> r.processes() > ParvaGpuScenarios.MAX_PROCESSES);
      assertThat(moreThanThree).as("scenario " + k).isEqualTo(k >= 3);
      if (moreThanThree) {
        assertThat(violations).as("scenario " + k).isNotEmpty().allSatisfy(v -> assertThat(v.message()).containsAnyOf("processes is not one of", "served"));
      } else {
        assertThat(violations).as("scenario " + k).isEmpty();
      }
    }
  }

  @Test
  void scenarioSixRunsAConfigurationMeasuredOnTheSevenGInstanceOnlyWhichAnswersThereAndNowhereElse() {
    // densenet169 on the 7g instance at batch 128 with 2 processes: ParvaGPU measured it on 7g only
    ColocationProblem six = scenario(6);
    assertThat(ParvaGpuDeployments.rows(6)).anySatisfy(r -> {
      assertThat(r.model()).isEqualTo("densenet169");
      assertThat(r.batch()).isEqualTo(128);
      assertThat(r.processes()).isEqualTo(2);
    });
    ColocationService densenet = six.service("densenet169");
    ColocationProblem alone = ParvaGpuScenarios.problem(List.of(densenet), 1, ColocationObjective.MAX_SCALE);
    Segment at7g = new Segment("densenet169", new MigSliceMps("7g.80gb", 0, 2, 0), 128);
    assertThat(ColocationVerifier.check(alone, new ColocationPlan(List.of(new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, List.of(at7g))), 0))).isEmpty();
    // the same segment on a 4g instance is not extrapolated from the 7g measurement: it has no time
    Segment at4g = new Segment("densenet169", new MigSliceMps("4g.40gb", 0, 2, 0), 128);
    assertThat(ColocationVerifier.check(alone, new ColocationPlan(List.of(new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, List.of(at4g))), 0)))
        .singleElement().satisfies(v -> assertThat(v.kind()).isEqualTo(Violation.Kind.UNTIMED));
    // the planners' menu (priced through the verifier) offers it on 7g and on no other size
    List<SegmentOption> options = SegmentMenu.of(alone).options(ParvaGpuScenarios.GPU_TYPE, "densenet169").stream()
        .filter(o -> o.batch() == 128 && o.processes() == 2).toList();
    assertThat(options).extracting(SegmentOption::profile).containsExactly("7g.80gb");
  }
}
