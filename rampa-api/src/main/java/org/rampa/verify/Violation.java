package org.rampa.verify;

/** One way in which a plan (a placement or a co-location plan) is wrong, with a message a person can act on. */
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
    INTERFERENCE,
    /** Co-location: more GPUs of a type than the cluster has. */
    GPU_COUNT,
    /** Co-location: segments of different sharing modes on one GPU, or a whole-GPU segment beside a part. */
    SHARING_MODE,
    /** Co-location: MIG instances that {@link org.rampa.domain.share.MigLayout} refuses (a profile or start the type lacks, an overlap). */
    MIG_LAYOUT,
    /** Co-location: NPU partition templates whose cores or memory add up to more than the card's. */
    TEMPLATE_CAPACITY,
    /** Co-location: MPS shares or CU masks that the problem's MPS admission refuses. */
    MPS_ADMISSION,
    /** Co-location: a segment's batch size or process count that its service does not offer. */
    SEGMENT_OPTION,
    /** Co-location: the time model has no batch time for a segment, so nothing about it can be checked. */
    UNTIMED
  }

  @Override
  public String toString() {
    return kind + ": " + message;
  }
}
