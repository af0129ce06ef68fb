package org.rampa.verify;

/** One way in which a plan is wrong, with a message a person can act on. */
public record Violation(Kind kind, String message) {

  /** The rule a plan broke. */
  public enum Kind {
    WRONG_SERVICE,
    COVERAGE,
    TOO_MANY_STAGES,
    UNKNOWN_GPU,
    MIXED_REPLICA_TYPES,
    RESOURCE_CONFLICT,
    /** A stage's placement does not exist on its GPU's type (MIG on a GPU without MIG, an unknown template or profile). */
    PLACEMENT,
    MEMORY,
    THROUGHPUT,
    LATENCY,
    PREDICTION_MISMATCH,
    /** A service on a GPU the plan shares would miss its SLO with its co-runners (the plan's own service included). */
    INTERFERENCE
  }

  @Override
  public String toString() {
    return kind + ": " + message;
  }
}
