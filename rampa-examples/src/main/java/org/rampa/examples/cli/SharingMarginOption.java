package org.rampa.examples.cli;

import java.time.Duration;
import org.rampa.perf.share.TierMargins;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import picocli.CommandLine.Option;

/**
 * The {@code --margin} option of the experiments that run sharing planners in the simulator ({@code simulate},
 * {@code vastpipe-e4}), and the planner options built with it: one definition, so that both commands parse, refuse and
 * apply the margin alike.
 */
final class SharingMarginOption {
  @Option(names = "--margin", defaultValue = SharingOptions.DEFAULT_MARGIN, paramLabel = "M",
      description = "Planning margin of the sharing planners on share-tier times, as colocate --margin: default (each share-time tier's "
          + "margin from its own measured error), none (the nominal times, as the experiments ran before the margins were the default), or "
          + "one fraction for every tier (0.1 for 10 %%). The planner, the admission guard and the audit all judge under it; planners on "
          + "whole GPUs are not affected. Default: ${DEFAULT-VALUE}.")
  String margin;

  /** The margin as given, refused naming {@code --margin} when it is not one. */
  TierMargins margins() {
    return TierMargins.parse("--margin", margin);
  }

  /**
   * The options every planner gets: the time limit (refused naming {@code --time-limit}), the seed and the margin, which
   * the sharing planners read from their options (Schedulers.named), and so do their guard and the audit.
   */
  StrategyOptions plannerOptions(Duration timeLimit, long seed) {
    margins();
    StrategyOptions options;
    try {
      options = StrategyOptions.builder().timeLimit(timeLimit).seed(seed).build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--time-limit: " + e.getMessage(), e);
    }
    return SharingOptions.off().withMargin(margin).applyTo(options);
  }
}
