package org.rampa.heuristics.importance;

import java.time.Duration;
import org.rampa.domain.ServiceRequest;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.TransferMode;
import org.rampa.testing.RandomInstances;

/** Seeded random requests and forecasts on top of {@link RandomInstances}. */
final class TestInstances {
  private TestInstances() {}

  /** A random request whose SLO ranges from easy to infeasible on the three test types. */
  static ServiceRequest request(RandomInstances ri, String id) {
    var r = ri.random();
    int layers = 1 + r.nextInt(8);
    return ri.request(
        id,
        ri.model(layers, 0.5 + r.nextDouble() * 60, 0.2),
        1 + r.nextInt(300),
        Duration.ofMillis(5 + r.nextInt(400)),
        1 + r.nextInt(4),
        1 + r.nextInt(4));
  }

  static WorkloadForecast forecast(RandomInstances ri, int classes) {
    var b = WorkloadForecast.builder();
    for (int c = 0; c < classes; c++) {
      b.add(request(ri, "class" + c), 0.1 + ri.random().nextDouble());
    }
    return b.build();
  }

  static PerformanceModel performance(RandomInstances ri) {
    return PerformanceModel.withTransfers(TransferMode.values()[ri.random().nextInt(TransferMode.values().length)]);
  }
}
