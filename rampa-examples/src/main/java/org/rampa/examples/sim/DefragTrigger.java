package org.rampa.examples.sim;

/**
 * Which quiet periods (departures before an arrival) the simulator defragments in, for a scheduler
 * with a defragmentation budget ({@link Scheduler#defragBudget()}).
 */
public enum DefragTrigger {
  /** Every quiet period (the seventh session's behaviour, and the default). */
  DEPARTURE(""),
  /**
   * Only a quiet period after an arrival was refused (the mover included) since the cluster was last
   * defragmented: moves are spent only while the cluster refuses, not to tidy a cluster that admits
   * everything anyway.
   */
  REFUSAL("-refusal"),
  /**
   * Every quiet period, but re-cuts and mode changes only ({@link org.rampa.moves.MoveRules#layoutOnly()})
   * unless an arrival was refused since the cluster was last defragmented: re-laying MIG GPUs for the
   * class mix restarts no service, migrations are spent only while the cluster refuses.
   */
  HYBRID("-hybrid");

  private final String suffix;

  DefragTrigger(String suffix) {
    this.suffix = suffix;
  }

  /** What a scheduler's name carries after its defragmentation budget ("" for the default). */
  public String suffix() {
    return suffix;
  }

  /** Whether a quiet period is defragmented at all, given whether an arrival was refused since the last defragmentation. */
  public boolean defragments(boolean refusedSince) {
    return this != REFUSAL || refusedSince;
  }

  /** Whether a quiet period's defragmentation may migrate services, given whether an arrival was refused since the last one. */
  public boolean migrates(boolean refusedSince) {
    return this != HYBRID || refusedSince;
  }

  /** The CLI's name for it. */
  public String cliName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
