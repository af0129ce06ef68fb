package org.rampa.examples.sim;

import org.rampa.domain.Invalid;
import org.rampa.domain.ServiceRequest;

/** One kind of service in a workload mix: a request template and its share of arrivals. */
public record WorkloadClass(String name, ServiceRequest template, double weight) {

  public WorkloadClass {
    Invalid.requireNonBlank("workloadClass.name", name);
    if (!(weight > 0) || !Double.isFinite(weight)) {
      throw Invalid.value("workloadClass[" + name + "].weight", weight, "must be a finite number > 0");
    }
  }
}
