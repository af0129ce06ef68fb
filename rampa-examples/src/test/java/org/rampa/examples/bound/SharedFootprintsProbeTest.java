package org.rampa.examples.bound;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.examples.experiment.Presets;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.heuristics.importance.ServiceClass;

class SharedFootprintsProbeTest {
  @Test
  void probe() {
    Cluster cluster = Presets.cluster("small");
    System.out.println(cluster.gpuTypes().stream().map(t -> t.name() + " mps=" + t.partitioning().mps() + " mig=" + t.partitioning().mig().isPresent()).toList());
    System.out.println("cap " + java.util.Arrays.toString(SharedFootprints.capacity(cluster, 0)));
    for (String w : List.of("light", "standard")) {
      for (ServiceClass c : WorkloadSpec.named(w).resolve(cluster).classes()) {
        long t0 = System.nanoTime();
        List<double[]> o = SharedFootprints.of(c.template(), cluster, 0);
        StringBuilder b = new StringBuilder();
        for (double[] v : o) {
          b.append(" [");
          for (double x : v) b.append(String.format(Locale.ROOT, "%.3f ", x));
          b.append("]");
        }
        System.out.printf("%s %s %.1fs:%s%n", w, c.template().id(), (System.nanoTime() - t0) / 1e9, b);
      }
    }
  }
}
