package org.rampa.heuristics.colocation;

import java.util.List;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.VerifiedColocationPlanner;
import org.rampa.domain.Invalid;

/**
 * The co-location heuristic and baselines, by name, and the learned policy ({@value #LEARNED}, the
 * shipped weights; a planner for every objective, kept out of {@link #NAMES} because it is
 * compared against them, not one of them).
 */
public final class ColocationPlanners {
  private ColocationPlanners() {}

  /** The heuristic and the baselines {@link #named} accepts, the heuristic first ({@link #LEARNED} is accepted too). */
  public static final List<String> NAMES = List.of("heuristic", "exclusive", "uniform-mig-1g", "uniform-mig-3g", "even-mps-2", "even-mps-4", "gpu-lets", "time-sharing");

  public static final String LEARNED = "learned";

  /** The planner {@code name}, every plan it returns checked by the co-location verifier ({@link VerifiedColocationPlanner}). */
  public static ColocationPlanner named(String name) {
    return VerifiedColocationPlanner.of(unverified(name));
  }

  private static ColocationPlanner unverified(String name) {
    return switch (name) {
      case "heuristic" -> new ParvaStyleHeuristic();
      case "exclusive" -> new ExclusiveBaseline();
      case "uniform-mig-1g" -> new UniformMigBaseline(1);
      case "uniform-mig-3g" -> new UniformMigBaseline(3);
      case "even-mps-2" -> MpsSetBaseline.evenSplit(2);
      case "even-mps-4" -> MpsSetBaseline.evenSplit(4);
      case "gpu-lets" -> MpsSetBaseline.gpuLets();
      case "time-sharing" -> new TimeSharingBaseline();
      case LEARNED -> org.rampa.heuristics.learned.LearnedColocationPlanner.shipped();
      default -> throw Invalid.value("planner", name, "is not a co-location heuristic or baseline", "use one of " + NAMES + " or " + LEARNED);
    };
  }
}
