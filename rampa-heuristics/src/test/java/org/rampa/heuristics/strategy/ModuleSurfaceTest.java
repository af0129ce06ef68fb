package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Provides;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rampa.strategy.Strategies;

/**
 * The packages rampa-heuristics exports are its public API: a new one must be added here on
 * purpose. The strategies themselves stay unexported and are reached only through their provider.
 */
class ModuleSurfaceTest {

  private final Module module = HeuristicStrategyProvider.class.getModule();

  @Test
  void exportsTheImportanceSplitAndProfileApisButNotTheStrategies() {
    assertThat(module.isNamed()).as("rampa-heuristics is a named module in its own tests").isTrue();
    ModuleDescriptor descriptor = module.getDescriptor();
    assertThat(descriptor.exports()).allSatisfy(e -> assertThat(e.isQualified()).as(e.source()).isFalse());
    assertThat(descriptor.exports().stream().map(Exports::source).collect(Collectors.toSet())).isEqualTo(Set.of(
        "org.rampa.heuristics.colocation", "org.rampa.heuristics.importance", "org.rampa.heuristics.learned", "org.rampa.heuristics.moves",
        "org.rampa.heuristics.profiles",
        "org.rampa.heuristics.split"));
    assertThat(descriptor.opens()).isEmpty();
  }

  @Test
  void providesItsStrategiesToTheServiceLoaderOfTheApi() {
    assertThat(module.getDescriptor().provides()).extracting(Provides::service, Provides::providers)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("org.rampa.strategy.StrategyProvider",
            List.of(HeuristicStrategyProvider.class.getName())));
    assertThat(Strategies.available()).containsAll(new HeuristicStrategyProvider().names());
  }
}
