package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import java.util.List;
import org.immutables.value.Value;

/**
 * One pipeline stage: layers {@code [from, to)} run on {@link #gpus()}, which are data-parallel
 * replicas of one GPU type (usually one GPU). {@link #share()} is the fraction of each GPU the
 * stage holds: 1 for exclusive use, less under spatial sharing.
 */
@Value.Immutable
@JsonSerialize(as = ImmutableStage.class)
@JsonDeserialize(as = ImmutableStage.class)
public abstract class Stage {

  public abstract int from();

  public abstract int to();

  public abstract List<String> gpus();

  @Value.Default
  public double share() {
    return 1.0;
  }

  /** Predicted time of one batch through one replica (T_k). */
  public abstract Duration computeTime();

  /** Predicted memory the stage needs on each of its GPUs. */
  public abstract long memoryBytes();

  public final int replicas() {
    return gpus().size();
  }

  @Value.Check
  protected void check() {
    if (from() < 0 || to() <= from()) {
      throw Invalid.value("stage.[from, to)", "[" + from() + ", " + to() + ")", "must be a non-empty layer range with from >= 0");
    }
    if (gpus().isEmpty()) {
      throw Invalid.value("stage[" + from() + "," + to() + ").gpus", "[]", "a stage needs at least one GPU");
    }
    if (gpus().stream().distinct().count() != gpus().size()) {
      throw Invalid.value("stage[" + from() + "," + to() + ").gpus", gpus(), "replicas must be distinct GPUs");
    }
    if (!(share() > 0 && share() <= 1)) {
      throw Invalid.value("stage[" + from() + "," + to() + ").share", share(), "must lie in (0, 1]");
    }
    Invalid.requireNonNegative("stage.computeTime", computeTime());
    Invalid.requireNonNegative("stage.memoryBytes", memoryBytes());
  }

  public static ImmutableStage.Builder builder() {
    return ImmutableStage.builder();
  }
}
