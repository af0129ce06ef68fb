package org.rampa.moves;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.verify.InterferenceGuard;

/**
 * Moves to apply in order, and optionally the admission they make room for, as one change of a
 * {@link ClusterStateHolder}: {@code holder.apply(sequence, version)} applies all of it or nothing.
 * To apply moves one by one instead, commit {@link #of} each single move with the version the
 * previous commit returned; every state in between is legal ({@link MoveRules}).
 */
public final class MoveSequence implements ClusterStateHolder.Change {

  private final List<Move> moves;
  private final MoveRules rules;
  private final Optional<Newcomer> newcomer;

  private record Newcomer(ServiceRequest request, Plan plan, InterferenceGuard guard) {}

  private MoveSequence(List<? extends Move> moves, MoveRules rules, Optional<Newcomer> newcomer) {
    this.moves = List.copyOf(moves);
    this.rules = Objects.requireNonNull(rules, "rules");
    this.newcomer = newcomer;
  }

  /** {@code moves}, judged by {@code rules}. */
  public static MoveSequence of(MoveRules rules, List<? extends Move> moves) {
    return new MoveSequence(moves, rules, Optional.empty());
  }

  /** {@code moves}, then {@code plan} for {@code request} admitted through {@code guard}, as one change. */
  public static MoveSequence admitting(MoveRules rules, List<? extends Move> moves, ServiceRequest request, Plan plan, InterferenceGuard guard) {
    return new MoveSequence(moves, rules, Optional.of(new Newcomer(request, plan, guard)));
  }

  public List<Move> moves() {
    return moves;
  }

  @Override
  public List<String> refusals(ClusterState state) {
    ClusterState s = state;
    for (int i = 0; i < moves.size(); i++) {
      MoveRules.Outcome o = rules.attempt(s, moves.get(i));
      if (!o.applied()) {
        List<String> out = new ArrayList<>();
        String which = "move " + (i + 1) + " of " + moves.size() + ": ";
        o.refusals().forEach(r -> out.add(which + r));
        return out;
      }
      s = o.after().get();
    }
    if (newcomer.isPresent()) {
      Newcomer n = newcomer.get();
      return n.guard().refusals(s, n.request(), n.plan());
    }
    return List.of();
  }

  @Override
  public ClusterState applyTo(ClusterState state) {
    ClusterState s = state;
    for (Move m : moves) {
      s = rules.apply(s, m);
    }
    if (newcomer.isPresent()) {
      Newcomer n = newcomer.get();
      s = n.guard().admit(s, n.request(), n.plan());
    }
    return s;
  }
}
