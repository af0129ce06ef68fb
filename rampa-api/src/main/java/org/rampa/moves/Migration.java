package org.rampa.moves;

import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.Placement;

/**
 * Migrates one replica of one stage of an admitted service: the replica on {@code fromGpu} stops
 * and restarts on {@code toGpu} with {@code placement} (a migration restarts the service's process,
 * so the destination may use what the source frees). A stage has one placement for all its
 * replicas, so a stage with several replicas keeps its placement and its GPU type; a stage with one
 * replica may take any placement on any GPU type. The service's plan is re-predicted for its new
 * GPUs; {@link MoveRules} refuses the move unless the plan still meets the SLO with its new
 * co-runners, and theirs.
 *
 * @param stage the stage's index in the service's plan
 */
public record Migration(String service, int stage, String fromGpu, String toGpu, Placement placement) implements Move {

  public Migration {
    Invalid.requireNonBlank("migration.service", service);
    // the field names are built only to refuse: the move space makes thousands of migrations per decision
    if (stage < 0 || fromGpu == null || fromGpu.isBlank() || toGpu == null || toGpu.isBlank() || placement == null) {
      String at = "migration[" + service + "]";
      Invalid.requireNonNegative(at + ".stage", stage);
      Invalid.requireNonBlank(at + ".fromGpu", fromGpu);
      Invalid.requireNonBlank(at + ".toGpu", toGpu);
      Invalid.requireNonNull(at + ".placement", placement);
    }
    if (fromGpu.equals(toGpu)) {
      throw Invalid.value("migration[" + service + "].toGpu", toGpu, "must differ from fromGpu", "a move within one GPU is a re-cut");
    }
  }

  @Override
  public List<String> gpus() {
    return List.of(fromGpu, toGpu);
  }

  @Override
  public String kind() {
    return "migrate";
  }

  @Override
  public String from() {
    return fromGpu;
  }

  @Override
  public String to() {
    return toGpu + " " + placement.label();
  }

  @Override
  public String toString() {
    return "migrate " + service + " stage " + stage + ": " + fromGpu + " -> " + to();
  }
}
