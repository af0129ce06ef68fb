package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.immutables.value.Value;

/** A placement of one service: ordered stages with the predictions that justified it. */
@Value.Immutable
@JsonSerialize(as = ImmutablePlan.class)
@JsonDeserialize(as = ImmutablePlan.class)
public abstract class Plan {

  public abstract String serviceId();

  public abstract List<Stage> stages();

  /** Predicted pipeline period: the time between two batches leaving the pipeline. */
  public abstract Duration period();

  /** Predicted sustained throughput in requests per second (batch / period). */
  public abstract double throughput();

  /** Predicted end-to-end latency of one request, batching wait included. */
  public abstract Duration latency();

  /** Allocation cost under the importance model the strategy used. */
  @Value.Default
  public double cost() {
    return 0;
  }

  /** Name of the strategy that produced the plan. */
  @Value.Default
  public String strategy() {
    return "manual";
  }

  public final Set<String> gpuIds() {
    Set<String> ids = new LinkedHashSet<>();
    stages().forEach(s -> ids.addAll(s.gpus()));
    return ids;
  }

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("plan.serviceId", serviceId());
    if (stages().isEmpty()) {
      throw Invalid.value("plan[" + serviceId() + "].stages", "[]", "a plan needs at least one stage");
    }
    if (!Double.isFinite(cost()) || cost() < 0) {
      throw Invalid.value("plan[" + serviceId() + "].cost", cost(), "must be a finite number >= 0");
    }
  }

  public static ImmutablePlan.Builder builder() {
    return ImmutablePlan.builder();
  }
}
