package org.rampa;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Opens;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The packages rampa-api exports are its public API: a new package must be added here on purpose,
 * so the surface cannot grow by accident. The tests run on the module path, so a missing
 * {@code opens} or {@code uses} fails the JSON and strategy tests as it would fail a user.
 */
class ModuleSurfaceTest {

  private final Module module = Rampa.class.getModule();

  @Test
  void testsRunOnTheModulePath() {
    assertThat(module.isNamed()).as("rampa-api is a named module in its own tests").isTrue();
    assertThat(module.getName()).isEqualTo("org.rampa.api");
  }

  @Test
  void exportsExactlyTheApiPackagesToEveryone() {
    ModuleDescriptor descriptor = module.getDescriptor();
    assertThat(descriptor.exports().stream().filter(e -> !e.isQualified()).map(Exports::source).collect(Collectors.toSet())).isEqualTo(Set.of(
        "org.rampa", "org.rampa.catalog", "org.rampa.colocation", "org.rampa.domain", "org.rampa.domain.share", "org.rampa.importance", "org.rampa.json",
        "org.rampa.moves", "org.rampa.perf", "org.rampa.perf.share", "org.rampa.split", "org.rampa.strategy", "org.rampa.verify"));
  }

  @Test
  void exportsTheStrategySupportOnlyToTheStrategyModules() {
    Set<Exports> qualified = module.getDescriptor().exports().stream().filter(Exports::isQualified).collect(Collectors.toSet());
    assertThat(qualified).singleElement().satisfies(e -> {
      assertThat(e.source()).isEqualTo("org.rampa.strategy.support");
      assertThat(e.targets()).containsExactlyInAnyOrder("org.rampa.heuristics", "org.rampa.solver");
    });
    assertThat(module.isExported("org.rampa.strategy.support")).as("exported to everyone").isFalse();
  }

  @Test
  void opensOnlyJsonBoundPackagesAndOnlyToJackson() {
    Set<Opens> opens = module.getDescriptor().opens();
    assertThat(opens.stream().map(Opens::source).collect(Collectors.toSet()))
        .isEqualTo(Set.of("org.rampa.domain", "org.rampa.domain.share", "org.rampa.json", "org.rampa.strategy"));
    assertThat(opens).allSatisfy(o -> assertThat(o.targets()).containsExactly("com.fasterxml.jackson.databind"));
  }

  @Test
  void looksUpStrategiesThroughTheServiceLoader() {
    assertThat(module.getDescriptor().uses()).containsExactly("org.rampa.strategy.StrategyProvider");
  }
}
