package org.rampa.heuristics.importance;

import java.util.Objects;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServiceRequest;

/**
 * One kind of future service in a {@link WorkloadForecast}: a request template (model, SLO,
 * K_max; its id only names the class) and a non-negative weight. Weights are relative: any unit
 * (arrivals per second, counts, probabilities) works as long as one forecast uses one unit.
 */
public record ServiceClass(ServiceRequest template, double weight) {

  public ServiceClass {
    Objects.requireNonNull(template, "template");
    if (!Double.isFinite(weight) || weight <= 0) {
      throw Invalid.value("serviceClass[" + template.id() + "].weight", weight, "must be a finite number > 0",
          "leave a class with no expected arrivals out of the forecast");
    }
  }
}
