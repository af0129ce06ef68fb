package org.rampa.json;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import org.immutables.value.Value;
import org.rampa.domain.Invalid;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;

/**
 * The {@code "moves"} part of a problem document (issue 25): {@code {"budget": N}} lets the planner
 * move up to N things (migrate stage replicas, re-cut free MIG instances, change empty GPUs' modes)
 * to admit the request; 0, the default, plans as without it. {@code search} is {@code exact} (the
 * cheapest sequence, proven) or {@code greedy} (fast, proves nothing); {@code costs} prices each kind;
 * {@code keepPlacements} (default false) keeps every migrated replica's placement instead of letting a
 * one-replica stage change kind or size within the sharing menu ({@code MoveRules#keepingPlacements}).
 */
@Value.Immutable
@JsonSerialize(as = ImmutableMovesDocument.class)
@JsonDeserialize(as = ImmutableMovesDocument.class)
public abstract class MovesDocument {

  /** The searches a document may name. */
  public static final List<String> SEARCHES = List.of("exact", "greedy");

  @Value.Default
  public int budget() {
    return 0;
  }

  @Value.Default
  public String search() {
    return "exact";
  }

  @Value.Default
  public MoveCosts costs() {
    return MoveCosts.defaults();
  }

  @Value.Default
  public boolean keepPlacements() {
    return false;
  }

  /** {@code rules} as this document asks: keeping placements when {@link #keepPlacements()}. */
  public MoveRules rules(MoveRules rules) {
    return keepPlacements() ? rules.keepingPlacements() : rules;
  }

  @Value.Check
  protected void check() {
    if (budget() < 0 || budget() > MoveProblem.MAX_BUDGET) {
      throw Invalid.value("moves.budget", budget(), "must lie in [0, " + MoveProblem.MAX_BUDGET + "]",
          "0 plans without moves; 1 or 2 is usually enough");
    }
    if (!SEARCHES.contains(search())) {
      throw Invalid.value("moves.search", search(), "must be one of " + SEARCHES, "exact proves the fewest-cost moves; greedy is fast");
    }
  }

  /** No moves: today's planning. */
  public static MovesDocument none() {
    return ImmutableMovesDocument.builder().build();
  }
}
