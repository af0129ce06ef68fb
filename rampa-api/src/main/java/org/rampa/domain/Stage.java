package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import java.util.List;
import org.immutables.value.Value;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * One pipeline stage: layers {@code [from, to)} run on {@link #gpus()}, which are data-parallel
 * replicas of one GPU type (usually one GPU). {@link #placement()} is the part of each GPU the
 * stage holds: the whole GPU, or an MPS share, MIG slice, CU mask or partition template.
 */
@Value.Immutable
@JsonSerialize(as = ImmutableStage.class)
@JsonDeserialize(as = ImmutableStage.class)
public abstract class Stage {

  public abstract int from();

  public abstract int to();

  public abstract List<String> gpus();

  @Value.Default
  public Placement placement() {
    return new Whole();
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
    Invalid.requireNonNegative("stage.computeTime", computeTime());
    Invalid.requireNonNegative("stage.memoryBytes", memoryBytes());
  }

  public static ImmutableStage.Builder builder() {
    return ImmutableStage.builder();
  }
}
