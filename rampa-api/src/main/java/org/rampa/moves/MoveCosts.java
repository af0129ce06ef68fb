package org.rampa.moves;

import org.rampa.domain.Invalid;

/**
 * What each kind of move costs, for a mover to minimise: a migration restarts a service's process
 * (its state reloads, requests in flight are retried), a re-cut or a mode change only reconfigures
 * instances nobody holds. Every price is finite and positive, so a cheapest sequence never carries
 * a useless move.
 *
 * @param migration the price of one {@link Migration}
 * @param recut the price of one {@link Recut}
 * @param modeChange the price of one {@link ModeChange}
 */
public record MoveCosts(double migration, double recut, double modeChange) {

  public MoveCosts {
    Invalid.requireFinitePositive("moves.costs.migration", migration);
    Invalid.requireFinitePositive("moves.costs.recut", recut);
    Invalid.requireFinitePositive("moves.costs.modeChange", modeChange);
  }

  /**
   * The defaults: a migration 1, a re-cut or mode change 0.25 (reconfiguring free instances is
   * cheaper than restarting a service; the ratio is a choice, not a measurement).
   */
  public static MoveCosts defaults() {
    return new MoveCosts(1, 0.25, 0.25);
  }

  /** Every move costs 1: a cheapest sequence is a shortest one. */
  public static MoveCosts unit() {
    return new MoveCosts(1, 1, 1);
  }

  /** The price of {@code move}. */
  public double of(Move move) {
    if (move instanceof Migration) {
      return migration;
    }
    return move instanceof Recut ? recut : modeChange;
  }
}
