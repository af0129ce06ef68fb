package org.rampa.domain;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The thread-safe current {@link ClusterState}. Planners read a snapshot, plan against it, and
 * commit with the snapshot's version: a commit made against an outdated version is refused (the
 * caller re-plans), so two planners can never book the same GPU twice and no plan is applied twice.
 *
 * @since 0.1.0
 */
public final class ClusterStateHolder {

  /** What happened to a commit. */
  public enum Outcome {
    COMMITTED,
    /** The state changed since the plan was made; nothing was applied. Re-plan on {@link #current()}. */
    STALE,
    /** The plan does not fit even the state it was made on; nothing was applied. */
    REFUSED
  }

  /** The outcome, the state after the attempt, and the reasons for a refusal. */
  public record CommitResult(Outcome outcome, ClusterState state, List<String> reasons) {}

  private final AtomicReference<ClusterState> current;

  public ClusterStateHolder(ClusterState initial) {
    this.current = new AtomicReference<>(java.util.Objects.requireNonNull(initial, "initial"));
  }

  public ClusterState current() {
    return current.get();
  }

  /**
   * Allocates {@code plan} if the state is still at {@code plannedOnVersion} and it passes the
   * ledger's rules (capacity, MIG legality, MPS room). It does not re-time anyone: a plan holding MPS
   * shares or CU masks must go through {@link #admit}, which checks every co-runner's SLO under the
   * interference the plan adds.
   */
  public CommitResult commit(Plan plan, long plannedOnVersion) {
    java.util.Objects.requireNonNull(plan, "plan");
    return apply(plannedOnVersion, s -> s.allocate(plan), s -> s.conflicts(plan));
  }

  /**
   * Admits {@code plan} for {@code request} through {@code guard} if the state is still at
   * {@code plannedOnVersion}: the ledger's rules, and no service on the plan's GPUs missing its SLO
   * with its new co-runners. The request and plan stay in the ledger for later admissions.
   */
  public CommitResult admit(ServiceRequest request, Plan plan, long plannedOnVersion, AdmissionRule guard) {
    // the guard judges the very state the allocation is applied to, so the change needs no second check
    return apply(plannedOnVersion, s -> s.allocate(Allocation.of(request, plan)), s -> guard.refusals(s, request, plan));
  }

  /**
   * Books {@code allocation} as it is, without a plan, if the state is still at {@code expectedVersion}
   * and it passes the ledger's rules: for GPUs taken by work RAMPA did not plan (another scheduler's
   * containers) or the part of a plan that is still held after the rest was given back.
   */
  public CommitResult hold(Allocation allocation, long expectedVersion) {
    java.util.Objects.requireNonNull(allocation, "allocation");
    return apply(expectedVersion, s -> s.allocate(allocation), s -> s.conflicts(allocation));
  }

  /**
   * A checked change of the ledger beyond one plan, such as a sequence of moves and an admission
   * ({@code org.rampa.moves.MoveSequence}): why it cannot be applied to a state, and the state after it.
   */
  public interface Change {
    /** Why the change cannot be applied to {@code state}; empty when it can. */
    List<String> refusals(ClusterState state);

    /** The state after the change; called only when {@link #refusals} found none on the same state. */
    ClusterState applyTo(ClusterState state);
  }

  /**
   * Applies {@code change} in one step if the state is still at {@code expectedVersion} and the
   * change finds no refusal on it: all of it or, STALE or REFUSED, nothing. A sequence of moves
   * committed move by move, each with the version the previous commit returned, stops at the
   * first move that no longer applies, in a legal state.
   */
  public CommitResult apply(Change change, long expectedVersion) {
    java.util.Objects.requireNonNull(change, "change");
    return apply(expectedVersion, change::applyTo, change::refusals);
  }

  /** Releases {@code serviceId} if the state is still at {@code expectedVersion}. */
  public CommitResult release(String serviceId, long expectedVersion) {
    java.util.Objects.requireNonNull(serviceId, "serviceId");
    return apply(
        expectedVersion,
        s -> s.release(serviceId),
        s -> s.holds(serviceId) ? List.of() : List.of("service \"" + serviceId + "\" holds nothing"));
  }

  private CommitResult apply(
      long expectedVersion,
      java.util.function.UnaryOperator<ClusterState> change,
      java.util.function.Function<ClusterState, List<String>> refusal) {
    while (true) {
      ClusterState before = current.get();
      if (before.version() != expectedVersion) {
        return new CommitResult(Outcome.STALE, before, List.of(
            "planned on version " + expectedVersion + ", the state is at version " + before.version()));
      }
      List<String> reasons = refusal.apply(before);
      if (!reasons.isEmpty()) {
        return new CommitResult(Outcome.REFUSED, before, reasons);
      }
      ClusterState after = change.apply(before);
      if (current.compareAndSet(before, after)) {
        return new CommitResult(Outcome.COMMITTED, after, List.of());
      }
      // another thread committed in between: loop, and the version check reports STALE
    }
  }
}
