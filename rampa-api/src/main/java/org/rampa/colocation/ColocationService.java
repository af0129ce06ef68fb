package org.rampa.colocation;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;

/**
 * One service of a demand mix: a whole model served at a request rate under a latency SLO, with the
 * batch sizes and per-segment MPS process counts a planner may choose from, the memory each process
 * reserves, and a weight for the weighted-throughput objective.
 *
 * @param rate requests per second at demand scale 1
 * @param slo the latency bound a request must meet; {@link SloRule} says how much of it a segment may use
 * @param processMemoryBytes the memory one process of this service needs (weights and working memory)
 */
public record ColocationService(
    String id, Model model, List<Integer> batches, List<Integer> processCounts, double rate, Duration slo, long processMemoryBytes, double weight) {

  public ColocationService {
    Invalid.requireNonBlank("service.id", id);
    Objects.requireNonNull(model, "model");
    String p = "service[" + id + "].";
    batches = List.copyOf(batches);
    processCounts = List.copyOf(processCounts);
    requirePositiveInts(p + "batches", batches, "list the batch sizes the service may run, e.g. [1, 2, 4, 8]");
    requirePositiveInts(p + "processCounts", processCounts, "use [1] for one process per segment");
    Invalid.requireFinitePositive(p + "rate", rate);
    Invalid.requirePositive(p + "slo", slo);
    Invalid.requireNonNegative(p + "processMemoryBytes", processMemoryBytes);
    Invalid.requireFinitePositive(p + "weight", weight);
  }

  private static void requirePositiveInts(String field, List<Integer> values, String hint) {
    if (values.isEmpty()) {
      throw Invalid.value(field, values, "must not be empty", hint);
    }
    for (int v : values) {
      if (v < 1) {
        throw Invalid.value(field, values, "every entry must be >= 1", hint);
      }
    }
  }
}
