package org.rampa.examples.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.PerformanceModel;

/** A weighted set of service classes with SLOs fixed for one cluster. */
public final class Workload {

  private final List<WorkloadClass> classes;
  private final double[] cumulative;

  public Workload(List<WorkloadClass> classes) {
    this.classes = List.copyOf(classes);
    this.cumulative = new double[classes.size()];
    double sum = 0;
    for (int i = 0; i < classes.size(); i++) {
      sum += classes.get(i).weight();
      cumulative[i] = sum;
    }
  }

  /** Resolves a spec against a cluster: SLOs relative to the best GPU type the cluster has. */
  public static Workload of(WorkloadSpec spec, Cluster cluster) {
    PerformanceModel pm = PerformanceModel.defaults();
    List<WorkloadClass> classes = new ArrayList<>();
    for (WorkloadSpec.Entry e : spec.classes()) {
      Model model;
      try {
        model = switch (e.phase()) {
          case "prefill" -> ModelCatalog.prefill(e.model(), e.tokens());
          case "decode" -> ModelCatalog.decode(e.model(), e.tokens());
          default -> ModelCatalog.model(e.model());
        };
      } catch (IllegalArgumentException bad) {
        // the catalog names its own parameters (sequenceLength, context): say which workload field it was
        throw new IllegalArgumentException("workload class " + e.model() + " (" + e.phase() + ", tokens " + e.tokens() + "): "
            + bad.getMessage(), bad);
      }
      double best = Double.POSITIVE_INFINITY;
      for (GpuType t : cluster.gpuTypes()) {
        best = Math.min(best, pm.stageSeconds(model, 0, model.size(), t, e.batch()));
      }
      double throughput = e.slo().throughputFactor * e.batch() / best;
      Duration latency = PerformanceModel.seconds(e.slo().latencyFactor * best);
      String name = model.name() + "/b" + e.batch() + "/" + e.slo().name().toLowerCase(java.util.Locale.ROOT);
      ServiceRequest template = ServiceRequest.builder()
          .id(name)
          .model(model)
          .slo(Slo.of(throughput, latency, e.batch()))
          .maxStages(e.maxStages())
          .build();
      classes.add(new WorkloadClass(name, template, e.weight()));
    }
    return new Workload(classes);
  }

  public List<WorkloadClass> classes() {
    return classes;
  }

  public int sample(SplittableRandom random) {
    double x = random.nextDouble() * cumulative[cumulative.length - 1];
    for (int i = 0; i < cumulative.length; i++) {
      if (x < cumulative[i]) {
        return i;
      }
    }
    return cumulative.length - 1;
  }
}
