package org.rampa.heuristics.colocation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.colocation.PipelinePartition;
import org.rampa.colocation.SloRule;
import org.rampa.domain.GpuType;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;

/** Seeded random co-location problems: ParvaGPU's measured models, or catalog models on several GPU types (analytic tier). */
final class RandomMixes {
  private RandomMixes() {}

  static ColocationProblem of(long seed) {
    Random r = new Random(seed);
    ColocationObjective objective = ColocationObjective.values()[r.nextInt(ColocationObjective.values().length)];
    return r.nextBoolean() ? measured(r, objective) : analytic(r, objective);
  }

  /**
   * A catalog mix (analytic tier) whose services each offer their models split into 2 and 3 stages
   * of about equal FLOPs ({@link PipelinePartition#evenFlops}).
   */
  static ColocationProblem pipelined(long seed) {
    Random r = new Random(seed);
    ColocationObjective objective = ColocationObjective.values()[r.nextInt(ColocationObjective.values().length)];
    ColocationProblem p = analytic(r, objective);
    List<ColocationService> services = p.services().stream()
        .map(s -> s.withPartitions(List.of(PipelinePartition.evenFlops(s.model(), 2), PipelinePartition.evenFlops(s.model(), 3)))).toList();
    return new ColocationProblem(services, p.pools(), p.timeModel(), p.interference(), p.sloRule(), p.admission(), objective);
  }

  /**
   * A catalog mix (analytic tier) on the modelled NPU-8C-64GB (templates of 1, 2, 4 and 8 cores, no
   * MPS), alone or beside A100s; processes of 1–20 GiB, so some fit only the larger templates.
   */
  static ColocationProblem npu(long seed) {
    Random r = new Random(seed);
    ColocationObjective objective = ColocationObjective.values()[r.nextInt(ColocationObjective.values().length)];
    List<ColocationService> services = catalogServices(r, 20);
    GpuType npu = SharingCatalog.standard().npuTypes().get(0);
    List<GpuPool> pools = new ArrayList<>(List.of(new GpuPool(npu, SharingCatalog.standard().partitioning(npu.name()), 1 + r.nextInt(30))));
    if (r.nextInt(4) == 0) {
      pools.add(new GpuPool(GpuCatalog.standard().type("A100-SXM4-80GB"), SharingCatalog.standard().partitioning("A100-SXM4-80GB"), r.nextInt(10)));
    }
    return new ColocationProblem(services, pools, AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(),
        r.nextBoolean() ? SloRule.parvaGpu() : SloRule.wholeSlo(), MpsAdmission.strict(), objective);
  }

  /**
   * A catalog mix (analytic tier, linear interference) on AMD MI100s (CU masking of 120 CUs, no MPS,
   * no MIG), alone or beside A100s; processes of 1–8 GiB.
   */
  static ColocationProblem cuMask(long seed) {
    Random r = new Random(seed);
    ColocationObjective objective = ColocationObjective.values()[r.nextInt(ColocationObjective.values().length)];
    List<ColocationService> services = catalogServices(r, 8);
    List<GpuPool> pools = new ArrayList<>(List.of(new GpuPool(GpuCatalog.standard().type("MI100"), SharingCatalog.standard().partitioning("MI100"),
        1 + r.nextInt(30))));
    if (r.nextInt(4) == 0) {
      pools.add(new GpuPool(GpuCatalog.standard().type("A100-SXM4-80GB"), SharingCatalog.standard().partitioning("A100-SXM4-80GB"), r.nextInt(10)));
    }
    return new ColocationProblem(services, pools, AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(),
        r.nextBoolean() ? SloRule.parvaGpu() : SloRule.wholeSlo(), MpsAdmission.strict(), objective);
  }

  private static ColocationProblem measured(Random r, ColocationObjective objective) {
    ColocationProblem base = ParvaGpuScenarios.scenario(2, 1 + r.nextInt(40), objective);
    List<ColocationService> pool = new ArrayList<>(base.services());
    Collections.shuffle(pool, r);
    List<ColocationService> services = new ArrayList<>();
    for (ColocationService s : pool.subList(0, 1 + r.nextInt(pool.size()))) {
      services.add(new ColocationService(s.id(), s.model(), s.batches(), s.processCounts(), 1 + r.nextInt(4000),
          Duration.ofMillis((long) (s.slo().toMillis() * (0.2 + 1.5 * r.nextDouble()))), 0, 1 + r.nextInt(3)));
    }
    return new ColocationProblem(services, base.pools(), base.timeModel(), base.interference(), base.sloRule(), base.admission(), objective);
  }

  private static ColocationProblem analytic(Random r, ColocationObjective objective) {
    List<String> models = new ArrayList<>(List.of("resnet50", "vgg16", "mobilenetv2", "bert-base", "gpt2-small", "vit-b16"));
    Collections.shuffle(models, r);
    List<ColocationService> services = new ArrayList<>();
    for (String m : models.subList(0, 1 + r.nextInt(models.size()))) {
      // one process per segment: the analytic tier gives each MPS process inside an instance the whole instance
      services.add(new ColocationService(m, ModelCatalog.model(m), List.of(1, 4, 16), List.of(1), 10 + r.nextInt(3000),
          Duration.ofMillis(5 + r.nextInt(200)), 1L << 30, 1 + r.nextInt(3)));
    }
    List<GpuPool> pools = new ArrayList<>();
    for (String type : List.of("A100-SXM4-80GB", "T4", "H100-SXM5-80GB")) {
      if (pools.isEmpty() || r.nextBoolean()) {
        pools.add(new GpuPool(GpuCatalog.standard().type(type), SharingCatalog.standard().partitioning(type), r.nextInt(30)));
      }
    }
    return new ColocationProblem(services, pools, AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(),
        r.nextBoolean() ? SloRule.parvaGpu() : SloRule.wholeSlo(), MpsAdmission.strict(), objective);
  }

  /** One to six shuffled catalog models (batches 1, 4, 16; one process), each using 1 to {@code maxGiB} GiB. */
  private static List<ColocationService> catalogServices(Random r, int maxGiB) {
    List<String> models = new ArrayList<>(List.of("resnet50", "vgg16", "mobilenetv2", "bert-base", "gpt2-small", "vit-b16"));
    Collections.shuffle(models, r);
    List<ColocationService> services = new ArrayList<>();
    for (String m : models.subList(0, 1 + r.nextInt(models.size()))) {
      services.add(new ColocationService(m, ModelCatalog.model(m), List.of(1, 4, 16), List.of(1), 10 + r.nextInt(3000),
          Duration.ofMillis(5 + r.nextInt(200)), (1 + r.nextInt(maxGiB)) * (1L << 30), 1 + r.nextInt(3)));
    }
    return services;
  }
}
