package org.rampa.heuristics.importance;

import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;

/** What makes two requests the same kind of service: model, SLO and K_max (not the id). */
record ClassKey(Model model, Slo slo, int maxStages) {

  static ClassKey of(ServiceRequest request) {
    return new ClassKey(request.model(), request.slo(), request.maxStages());
  }
}
