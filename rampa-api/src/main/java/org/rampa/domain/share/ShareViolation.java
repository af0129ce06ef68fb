package org.rampa.domain.share;

/** Why a set of placements cannot share one GPU: the rule broken and a message naming the culprits. */
public record ShareViolation(Rule rule, String message) {

  /** The sharing rules of docs/SHARING.md section 1. */
  public enum Rule {
    /** A MIG profile the GPU type does not have. */
    MIG_PROFILE,
    /** A MIG instance at a memory slice its profile may not start at. */
    MIG_START,
    /** Two MIG instances whose memory slices overlap. */
    MIG_OVERLAP,
    /** MPS or CU-mask placements on a type that has no MPS or no CU masking. */
    UNSUPPORTED,
    /** Contended compute fractions summing to more than 1 plus the overcommit. */
    COMPUTE_SUM,
    /** More MPS clients than the GPU, or the MIG instance, admits. */
    CLIENT_LIMIT,
    /** Reservations plus per-process context memory exceeding the card. */
    CARD_MEMORY,
    /** MPS processes inside one MIG instance needing more than its memory. */
    INSTANCE_MEMORY,
    /** Placements of different modes on one GPU, or a whole holding on a GPU someone else holds part of. */
    MODE,
    /** A MIG holding that is not a free instance of its GPU's configured layout. */
    MIG_INSTANCE,
    /** A placement the GPU type cannot have (a profile or start it lacks, more CUs or cores than it has). */
    PLACEMENT,
    /** A holding using more memory than its placement has (its MIG instance, template or reservation). */
    HOLDING_MEMORY,
    /** NPU templates whose cores add up to more than the card's. */
    CORE_SUM,
    /** A MIG layout change on a GPU somebody holds part of. */
    RECONFIGURATION
  }

  @Override
  public String toString() {
    return rule + ": " + message;
  }
}
