package org.rampa.heuristics.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SloRule;
import org.rampa.domain.Cluster;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.DeviceKind;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageCursor;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.split.LayerCostTable;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;

/**
 * A ResNet-50 service is timed the same way by the placement API ({@link Rampa}) and by
 * co-location ({@code colocate}'s {@link ColocationPerformance}) when both serve it with the same
 * runtime: TensorRT (the catalog's) or PyTorch eager (ParvaGPU's tables), whole or on a MIG slice.
 * Neither mixes the two: ParvaGPU's PyTorch tables never time a TensorRT ResNet-50 (the ~10× gap of
 * issue 24), and the placement API and layer cost tables, which time stages layer by layer on the
 * TensorRT calibration, refuse a PyTorch-eager one.
 */
class OneRuntimePerServiceTest {

  private static final String A100 = "A100-SXM4-80GB";
  private static final int BATCH = 8;

  private final GpuType a100 = GpuCatalog.standard().type(A100);
  private final Model tensorRt = ModelCatalog.model("resnet50");
  private final Model eager = tensorRt.servedBy(ServingRuntime.PYTORCH_EAGER);

  @Test
  void rampaAndColocateTimeATensorRtResnetAlikeOnAWholeGpu() {
    Cluster cluster = ClusterPresets.of(Map.of(A100, 1), 1, ClusterPresets.NETWORK_100G);
    ServiceRequest request = ServiceRequest.builder().id("resnet50").model(tensorRt).slo(Slo.of(1, Duration.ofSeconds(1), BATCH)).build();
    PlacementResult placed = Rampa.on(cluster).importance(StaticImportance.uniform()).strategy("greedy").place(request);
    assertThat(placed.status()).as(placed.reason()).isEqualTo(SolveStatus.FEASIBLE);
    List<Double> stages = PerformanceModel.defaults()
        .estimate(request, PerformanceModel.assignmentsOf(placed.plan().orElseThrow()), cluster).stageComputeSeconds();
    assertThat(stages).hasSize(1);
    double colocated = colocated(tensorRt, new Whole());
    assertThat(colocated).isCloseTo(stages.get(0), within(stages.get(0) * 1e-9));
    // the catalog's TensorRT time, not ParvaGPU's PyTorch one (~10x slower)
    assertThat(colocated).isLessThan(colocated(eager, new Whole()) / 3);
  }

  @Test
  void theKernelAndColocateTimeEachRuntimeAlikeWholeAndOnAMigSlice() {
    for (Model m : List.of(tensorRt, eager)) {
      for (Placement p : List.<Placement>of(new Whole(), new MigSlice("3g.40gb", 4), new MigSlice("7g.80gb", 0))) {
        double kernel = kernel(m, p);
        // equal up to rounding: on a whole GPU the kernel adds layer times, the analytic tier re-splits each (t(1) = whole)
        assertThat(colocated(m, p)).as("%s served by %s on %s", m.name(), m.runtime(), p.label()).isCloseTo(kernel, within(kernel * 1e-12));
      }
    }
    // PyTorch eager's whole GPU is ParvaGPU's 7g instance (resnet50.csv: batch 8, 1 process, 7g: measured)
    assertThat(kernel(eager, new Whole())).isEqualTo(kernel(eager, new MigSlice("7g.80gb", 0)));
  }

  @Test
  void thePlacementApiRefusesAServiceItWouldTimeWithTwoRuntimes() {
    Cluster cluster = ClusterPresets.of(Map.of(A100, 1), 1, ClusterPresets.NETWORK_100G);
    ServiceRequest request = ServiceRequest.builder().id("resnet50").model(eager).slo(Slo.of(1, Duration.ofSeconds(1), BATCH)).build();
    assertThatThrownBy(() -> Rampa.on(cluster).importance(StaticImportance.uniform()).strategy("greedy").place(request))
        .hasMessageContaining("request.model.runtime = pytorch-eager")
        .hasMessageContaining("tensorrt")
        .hasMessageContaining("co-locate");
  }

  @Test
  void layerCostTablesRefuseAModelTheyWouldTimeInAnotherRuntime() {
    assertThatThrownBy(() -> LayerCostTable.forModel(eager, BATCH, List.of(a100), ClusterPresets.NETWORK_100G, PerformanceModel.defaults()))
        .hasMessageContaining("model.runtime = pytorch-eager")
        .hasMessageContaining("Maybe");
    assertThat(LayerCostTable.forModel(tensorRt, BATCH, List.of(a100), ClusterPresets.NETWORK_100G, PerformanceModel.defaults()).layers())
        .isEqualTo(tensorRt.size());
  }

  /** One batch of the whole model on {@code p}, as the placement kernel's stage cursor times it. */
  private double kernel(Model m, Placement p) {
    StageCursor c = PerformanceModel.defaults().cursor(m, BATCH, 0, List.of(DeviceKind.of(a100, p)));
    while (c.canAdd()) {
      c.add();
    }
    return c.seconds(0);
  }

  /** One batch of the whole model on {@code p} alone on its GPU, as co-location times it (colocate's batchMs). */
  private double colocated(Model m, Placement p) {
    ColocationService service = new ColocationService("resnet50", m, List.of(BATCH), List.of(1), 10, Duration.ofSeconds(1), 0, 1);
    ColocationProblem problem = new ColocationProblem(List.of(service), List.of(new GpuPool(a100, a100.partitioning(), 1)),
        ShareTimeModel.defaults(), InterferenceModel.defaults(), SloRule.parvaGpu(), MpsAdmission.strict(), ColocationObjective.MIN_GPUS);
    return ColocationPerformance.evaluate(problem, new GpuConfiguration(A100, List.of(new Segment("resnet50", p, BATCH)))).orElseThrow()
        .get(0).batchSeconds();
  }
}
