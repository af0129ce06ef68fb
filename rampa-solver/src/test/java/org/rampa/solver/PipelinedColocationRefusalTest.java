package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.PipelinePartition;
import org.rampa.colocation.SloRule;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.SolveStatus;

/** The exact planner's columns run whole models: it refuses a pipelined service instead of claiming a bound that ignores its stages. */
class PipelinedColocationRefusalTest {

  @Test
  void refusesPipelinedServicesWithAReason() {
    String type = "A100-SXM4-80GB";
    var model = ModelCatalog.model("vgg16");
    ColocationService s = new ColocationService("v", model, List.of(1, 8), List.of(1), 100, Duration.ofMillis(200), 1L << 30, 1,
        List.of(PipelinePartition.evenFlops(model, 2)));
    ColocationProblem p = new ColocationProblem(List.of(s), List.of(new GpuPool(GpuCatalog.standard().type(type), SharingCatalog.standard().partitioning(type), 4)),
        AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(), SloRule.parvaGpu(), MpsAdmission.strict(), ColocationObjective.MIN_GPUS);
    ColocationResult r = new PatternColocationPlanner().plan(p, Duration.ofSeconds(5));
    assertThat(r.status()).isEqualTo(SolveStatus.NO_PLAN_FOUND);
    assertThat(r.plan()).isEmpty();
    assertThat(r.bound()).isEmpty();
    assertThat(r.reason()).contains("service v offers pipeline partitions").contains("whole models only");
  }
}
